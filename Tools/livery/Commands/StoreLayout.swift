import Foundation
import LiveryStore
import LiveryStoreDevelopment

/// Which theme handler the store commands use: the compiled files an app installs, or theme
/// sources compiled on this machine (the commands' default for `install`, a development tool).
enum StoreLayout {
    static func handlers(compiled: Bool) -> [any ContentHandler] {
        compiled ? [] : [SourceThemeContentHandler()]
    }

    /// A folder with no source-installed theme (`*.purchasedTheme`) is read as an app reads it.
    static func isCompiled(_ folder: String) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return !entries.contains { $0.hasSuffix(".purchasedTheme") }
            && entries.contains { $0.hasSuffix(".livery") }
    }
}
