/// A dotted version (`1.2.0`), compared numerically part by part; missing parts count as 0,
/// so `1.2` == `1.2.0` and `1.10.0` > `1.9.3`.
public struct ThemeVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let parts: [Int]
    public let description: String

    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        var parts: [Int] = []
        for piece in pieces {
            guard let number = Int(piece), number >= 0 else { return nil }
            parts.append(number)
        }
        guard !parts.isEmpty else { return nil }
        self.parts = parts
        self.description = text
    }

    public static func < (lhs: ThemeVersion, rhs: ThemeVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let left = index < lhs.parts.count ? lhs.parts[index] : 0
            let right = index < rhs.parts.count ? rhs.parts[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    public static func == (lhs: ThemeVersion, rhs: ThemeVersion) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    public func hash(into hasher: inout Hasher) {
        var trimmed = parts
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }
}

extension ThemeVersion {
    /// Whether `candidate` is newer than `installed`; unparsable versions compare as text.
    public static func isNewer(_ candidate: String, than installed: String) -> Bool {
        guard let new = ThemeVersion(candidate), let old = ThemeVersion(installed) else { return candidate > installed }
        return new > old
    }
}
