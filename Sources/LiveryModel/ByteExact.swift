/// Equality as the compiled format stores values, byte for byte: strings by their UTF-8 bytes
/// (Swift's `==` calls NFC "é" and NFD "e" + U+0301 equal), numbers by bit pattern (`==` calls 0
/// and -0 equal). The writer shares a record only between operations the same in this sense, and
/// the compiler's proof compares a compiled file with its folder by it.
public enum ByteExact {
    /// Two strings with the same UTF-8 bytes.
    public static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    /// Two numbers with the same bit pattern.
    public static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }

    /// Both absent, or both present with the same bit pattern.
    public static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return same(x, y)
        default: return false
        }
    }

    /// Two values byte for byte: one case per type (no `default:`), so a new type must answer
    /// here; values of two types differ.
    public static func same(_ a: Value, _ b: Value) -> Bool {
        switch a {
        case .float(let x):
            guard case .float(let y) = b else { return false }
            return same(x, y)
        case .integer(let x):
            guard case .integer(let y) = b else { return false }
            return x == y
        case .bool(let x):
            guard case .bool(let y) = b else { return false }
            return x == y
        case .string(let x):
            guard case .string(let y) = b else { return false }
            return same(x, y)
        case .enumeration(let x):
            guard case .enumeration(let y) = b else { return false }
            return same(x, y)
        case .color(let x):
            guard case .color(let y) = b else { return false }
            return same(x.red, y.red) && same(x.green, y.green) && same(x.blue, y.blue) && same(x.alpha, y.alpha)
        case .point(let x):
            guard case .point(let y) = b else { return false }
            return same(x.x, y.x) && same(x.y, y.y)
        case .size(let x):
            guard case .size(let y) = b else { return false }
            return same(x.width, y.width) && same(x.height, y.height)
        case .rect(let x):
            guard case .rect(let y) = b else { return false }
            return same(x.x, y.x) && same(x.y, y.y) && same(x.width, y.width) && same(x.height, y.height)
        case .insets(let x):
            guard case .insets(let y) = b else { return false }
            return same(x.top, y.top) && same(x.left, y.left) && same(x.bottom, y.bottom) && same(x.right, y.right)
        case .font(let x):
            guard case .font(let y) = b else { return false }
            return same(x.family, y.family) && same(x.size, y.size) && x.weight == y.weight
                && same(x.maxSize, y.maxSize) && x.scaling == y.scaling && same(x.letterSpacing, y.letterSpacing)
                && same(x.lineHeight, y.lineHeight)
        case .image(let x):
            guard case .image(let y) = b else { return false }
            return same(x.name, y.name) && x.cache == y.cache
        case .array(let x):
            guard case .array(let y) = b else { return false }
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        }
    }
}
