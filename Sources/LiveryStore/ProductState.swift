// What a product is for the user: bought, installed, downloading, in use, updatable.

/// What a product is for the user right now.
public struct ProductState: Sendable, Hashable {
    public var isFree: Bool
    /// Bought (the app records purchases with `markPurchased`); free products count as bought.
    public var isPurchased: Bool
    /// The installed version, when installed ("downloaded").
    public var installedVersion: String?
    /// A download or install is running.
    public var task: ProductTaskState?
    /// It is the theme manager's current theme.
    public var isInUse: Bool
    /// The catalog has a newer version than the installed one.
    public var isUpdateAvailable: Bool
    /// The version parked because what it builds on changed (a compiled theme made from another
    /// copy of its parent): not shown; installing the product again from the catalog restores it.
    public var parkedVersion: String? = nil

    public var isInstalled: Bool { installedVersion != nil }
    public var isDownloading: Bool { task.map { !$0.isTerminal } ?? false }
}
