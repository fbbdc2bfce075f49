/// The prepared themes an applicator keeps, least recently used first, at most `limit` of them:
/// switching back and forth between a few themes and trait sets then costs only the plans'
/// execution.
///
/// An array searched from its end, not a dictionary by key: it holds a handful, and on Linux
/// the first dictionary keyed by a type costs the launch a scan of every loaded image's
/// conformance records (`livery-bench launch`).
@MainActor
struct PreparedThemeCache {
    private(set) var themes: [PreparedTheme] = []
    var limit = 8

    /// The theme prepared for `key`, which becomes the most recently used.
    mutating func use(_ key: PreparedTheme.Key) -> PreparedTheme? {
        guard let index = themes.lastIndex(where: { $0.key == key }) else { return nil }
        let theme = themes.remove(at: index)
        themes.append(theme)
        return theme
    }

    /// The theme prepared for `key`, leaving the order alone.
    func theme(for key: PreparedTheme.Key) -> PreparedTheme? {
        themes.last { $0.key == key }
    }

    /// Keeps `theme` as the most recently used, in place of one with the same key, evicting
    /// the least recently used beyond `limit`.
    mutating func keep(_ theme: PreparedTheme) {
        themes.removeAll { $0.key == theme.key }
        if themes.count >= max(1, limit) { themes.removeFirst(themes.count - max(1, limit) + 1) }
        themes.append(theme)
    }

    mutating func removeAll() {
        themes.removeAll()
    }
}
