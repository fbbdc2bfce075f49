/// The kinds of typed object a theme can hold; the raw value is the XML element name.
public enum ValueType: String, CaseIterable, Hashable, Sendable, Codable {
    case float, integer, bool, string, color, point, size, rect, insets, font, image
    case enumeration = "enum"
    case array
}

/// A resolved typed value: references already replaced by what they name.
public indirect enum Value: Hashable, Sendable {
    case float(Double)
    case integer(Int64)
    case bool(Bool)
    case string(String)
    case color(Color)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case insets(Insets)
    case font(Font)
    case image(ImageReference)
    case enumeration(String)
    case array([Value])

    public var type: ValueType {
        switch self {
        case .float: .float
        case .integer: .integer
        case .bool: .bool
        case .string: .string
        case .color: .color
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .insets: .insets
        case .font: .font
        case .image: .image
        case .enumeration: .enumeration
        case .array: .array
        }
    }
}

/// An RGBA colour with components in 0...1.
public struct Color: Hashable, Sendable, Codable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `#RRGGBBAA`, upper case, each channel `round(c * 255)`: the canonical form `dump` prints.
    public var hexString: String {
        let digits = Array("0123456789ABCDEF")
        var text = "#"
        for component in [red, green, blue, alpha] {
            let byte = Int((min(max(component, 0), 1) * 255).rounded())
            text.append(digits[byte >> 4])
            text.append(digits[byte & 0xF])
        }
        return text
    }
}

public struct Point: Hashable, Sendable, Codable {
    public var x, y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

public struct Size: Hashable, Sendable, Codable {
    public var width, height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

public struct Rect: Hashable, Sendable, Codable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

public struct Insets: Hashable, Sendable, Codable {
    public var top, left, bottom, right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

public enum FontWeight: String, CaseIterable, Hashable, Sendable, Codable {
    case ultralight, thin, light, regular, medium, semibold, bold, heavy, black
}

/// Whether a font follows the user's text scale (format 1.1, section 7.2).
public enum FontScaling: String, CaseIterable, Hashable, Sendable, Codable {
    case scaled, fixed
}

/// A font request. `size` is nil when the theme leaves it to the platform's default size.
public struct Font: Hashable, Sendable, Codable {
    public var family: String
    /// The size at text scale 1, as the theme wrote it.
    public var size: Double?
    public var weight: FontWeight
    /// The largest size text scaling may reach; nil when the theme gives none.
    public var maxSize: Double?
    /// Nil when the theme does not say (which means `scaled`); kept apart from `scaled` so a dump
    /// prints `scaling` only where the source gives it.
    public var scaling: FontScaling?
    /// Extra space between letters, in points at `size`; may be negative. Nil when the theme
    /// does not say (which means 0), kept apart from 0 so that a 0 written in the theme is
    /// dumped and exported (format 1.2, section 8).
    public var letterSpacing: Double?
    /// The distance between baselines as a multiple of the applied size, >= 0. Nil when the
    /// theme leaves it to the platform's default.
    public var lineHeight: Double?

    public init(
        family: String, size: Double?, weight: FontWeight = .regular, maxSize: Double? = nil,
        scaling: FontScaling? = nil, letterSpacing: Double? = nil, lineHeight: Double? = nil
    ) {
        self.family = family
        self.size = size
        self.weight = weight
        self.maxSize = maxSize
        self.scaling = scaling
        self.letterSpacing = letterSpacing
        self.lineHeight = lineHeight
    }

    /// Whether the size follows the text scale: the default unless the theme says `fixed`.
    public var followsTextScale: Bool { scaling != .fixed }

    /// The size applied at text scale `textScale`: `min(size x s, max-size)`, or `size` for a
    /// fixed font; nil when the theme leaves the size to the platform.
    public func appliedSize(textScale: Double) -> Double? {
        guard let size else { return nil }
        guard followsTextScale else { return size }
        let scaled = size * textScale
        return maxSize.map { min(scaled, $0) } ?? scaled
    }

    /// The letter spacing applied at `textScale`: the spacing grows in proportion to the size,
    /// `letterSpacing x (applied size / size)`, so text keeps its look at every size. A fixed
    /// font, and a font without a size (or of size 0), keep the spacing as written; nil when the
    /// theme gives none. Line height needs no such method: a multiple of the size, it scales
    /// with it.
    public func appliedLetterSpacing(textScale: Double) -> Double? {
        guard let letterSpacing else { return nil }
        guard let size, size > 0, let applied = appliedSize(textScale: textScale) else { return letterSpacing }
        return letterSpacing * (applied / size)
    }

    /// This font as applied at `textScale`: the size and the letter spacing replaced by their
    /// applied values (line height, a multiple of the size, as written).
    public func applied(textScale: Double) -> Font {
        var font = self
        font.size = appliedSize(textScale: textScale)
        font.letterSpacing = appliedLetterSpacing(textScale: textScale)
        return font
    }
}

/// The text scale an app runs with (format 1.1, section 7.2): the ratio of the user's text size
/// to the default, 0.5...4. Not a trait: it selects no files, it only resizes scaled fonts.
public enum TextScale {
    public static let range: ClosedRange<Double> = 0.5...4
    public static let standard: Double = 1
}

/// An image by asset name. Which file it is depends on the traits and scale (see `AssetCatalog`).
public struct ImageReference: Hashable, Sendable, Codable {
    public var name: String
    /// The theme asks the engine to keep the decoded image in memory.
    public var cache: Bool
    public init(name: String, cache: Bool = false) {
        self.name = name
        self.cache = cache
    }
}

/// A value's saved form is an object with one key, its type's element name, holding the payload:
/// `{"color": {"red": 1, "green": 0.23, "blue": 0.19, "alpha": 1}}`, `{"float": 12}`. Components
/// are kept exactly (no rounding to a hex byte), so a value read back equals the value saved.
extension Value: Codable {
    private struct TypeKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a value is an object with exactly one key, its type"))
        }
        guard let type = ValueType(rawValue: key.stringValue) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [key],
                    debugDescription:
                        "unknown value type '\(key.stringValue)'; use one of \(ValueType.allCases.map(\.rawValue).joined(separator: ", "))"
                ))
        }
        switch type {
        case .float: self = .float(try container.decode(Double.self, forKey: key))
        case .integer: self = .integer(try container.decode(Int64.self, forKey: key))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .color: self = .color(try container.decode(Color.self, forKey: key))
        case .point: self = .point(try container.decode(Point.self, forKey: key))
        case .size: self = .size(try container.decode(Size.self, forKey: key))
        case .rect: self = .rect(try container.decode(Rect.self, forKey: key))
        case .insets: self = .insets(try container.decode(Insets.self, forKey: key))
        case .font: self = .font(try container.decode(Font.self, forKey: key))
        case .image: self = .image(try container.decode(ImageReference.self, forKey: key))
        case .enumeration: self = .enumeration(try container.decode(String.self, forKey: key))
        case .array: self = .array(try container.decode([Value].self, forKey: key))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        let key = TypeKey(stringValue: type.rawValue)
        switch self {
        case .float(let number): try container.encode(number, forKey: key)
        case .integer(let number): try container.encode(number, forKey: key)
        case .bool(let flag): try container.encode(flag, forKey: key)
        case .string(let text), .enumeration(let text): try container.encode(text, forKey: key)
        case .color(let color): try container.encode(color, forKey: key)
        case .point(let point): try container.encode(point, forKey: key)
        case .size(let size): try container.encode(size, forKey: key)
        case .rect(let rect): try container.encode(rect, forKey: key)
        case .insets(let insets): try container.encode(insets, forKey: key)
        case .font(let font): try container.encode(font, forKey: key)
        case .image(let image): try container.encode(image, forKey: key)
        case .array(let items): try container.encode(items, forKey: key)
        }
    }
}
