import Foundation

/// A product as installed: read back from the installed folder, never from a cache.
public struct InstalledProduct: Codable, Hashable, Sendable {
    public var id: String
    public var type: String
    public var name: String
    public var version: String
    /// The product this one builds on (a theme's parent), if any.
    public var parent: String?
    /// The installed folder (`<installed>/<id>.<folderExtension>`).
    public var path: String

    public init(id: String, type: String, name: String, version: String, parent: String? = nil, path: String) {
        self.id = id
        self.type = type
        self.name = name
        self.version = version
        self.parent = parent
        self.path = path
    }
}

/// What a handler sees while it checks freshly unpacked content.
public struct InstallContext: Sendable {
    /// The folder products are installed into.
    public var installedFolder: String
    /// Folders with products that ship with the app (for themes: the bundled `.theme` folders).
    public var bundledSearchPaths: [String]
    /// Everything installed now, every type.
    public var installed: [InstalledProduct]
}

/// Installs one product type. The store does the rest (download, checks, extraction with caps,
/// atomic moves, recovery, update and uninstall rules); a handler only checks content and
/// derives files from it. Register one per type: `store.register(StickerPackHandler())`.
public protocol ContentHandler: Sendable {
    /// The manifest's `type` this handler installs, e.g. `theme`.
    var type: String { get }
    /// The extension of the installed folder, e.g. `purchasedTheme`: `<id>.<extension>`.
    var folderExtension: String { get }
    /// Extensions of files derived from the content and installed beside the folder
    /// (`<id>.<extension>`), e.g. `livery` for compiled themes.
    var derivedFileExtensions: [String] { get }

    /// Checks the unpacked content at `folder` (already matched against the manifest) and
    /// returns the derived files by extension. Throws `StoreError.invalidContent` or
    /// `.missingDependency` to refuse the product; nothing is installed then.
    func prepare(contentAt folder: String, manifest: PackageManifest, context: InstallContext) throws -> [String: Data]

    /// Describes an installed folder, or nil when it is not a valid product of this type.
    func describe(installedFolder folder: String) -> InstalledProduct?

    /// Derives the files of an installed product again, because a product it builds on changes
    /// (a theme's compiled file covers its parents). `context.installedFolder` is a view of the
    /// installed folder with the new version in place. Throws when the product no longer works
    /// with it; the update is then refused.
    func rederive(contentAt folder: String, context: InstallContext) throws -> [String: Data]

    /// The one file of the package installed as `<id>.<folderExtension>` in place of the
    /// `content/` folder (a theme's compiled file), or nil to install the content folder. Throws
    /// to refuse the package (e.g. it has no compiled file this app can read).
    func installedFile(of manifest: PackageManifest, context: InstallContext) throws -> String?

    /// Why the installed product at `path` can no longer be shown with the products it builds on
    /// as `context` has them (a compiled theme made from another copy of its parent), or nil.
    /// The store then parks it: moves it out of the installed folder into its own `parked/`.
    func mismatch(ofInstalledAt path: String, context: InstallContext) -> String?
}

extension ContentHandler {
    /// The `content/` folder is installed.
    public func installedFile(of manifest: PackageManifest, context: InstallContext) throws -> String? { nil }

    /// Nothing to check: the product's files do not depend on the products it builds on, or are
    /// derived again when those change.
    public func mismatch(ofInstalledAt path: String, context: InstallContext) -> String? { nil }

    /// Nothing to derive again: the product's files do not depend on the products it builds on.
    public func rederive(contentAt folder: String, context: InstallContext) throws -> [String: Data] { [:] }
}

/// Handlers by type; the theme handler is always there.
public struct ContentHandlers: Sendable {
    public private(set) var byType: [String: any ContentHandler] = [:]

    public init(_ handlers: [any ContentHandler] = []) {
        register(ThemeContentHandler())
        for handler in handlers { register(handler) }
    }

    public mutating func register(_ handler: any ContentHandler) {
        byType[handler.type] = handler
    }

    public func handler(for type: String) throws -> any ContentHandler {
        guard let handler = byType[type] else { throw StoreError.unsupportedType(type) }
        return handler
    }

    public var all: [any ContentHandler] { byType.keys.sorted().compactMap { byType[$0] } }
}
