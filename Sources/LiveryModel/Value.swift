/// The kinds of typed object a theme can hold; the raw value is the XML element name.
public enum ValueType: String, CaseIterable, Hashable, Sendable {
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
public struct Color: Hashable, Sendable {
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

public struct Point: Hashable, Sendable {
    public var x, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

public struct Size: Hashable, Sendable {
    public var width, height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

public struct Rect: Hashable, Sendable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

public struct Insets: Hashable, Sendable {
    public var top, left, bottom, right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

public enum FontWeight: String, CaseIterable, Hashable, Sendable {
    case ultralight, thin, light, regular, medium, semibold, bold, heavy, black
}

/// A font request. `size` is nil when the theme leaves it to the platform's default size.
public struct Font: Hashable, Sendable {
    public var family: String
    public var size: Double?
    public var weight: FontWeight
    public init(family: String, size: Double?, weight: FontWeight = .regular) {
        self.family = family
        self.size = size
        self.weight = weight
    }
}

/// An image by asset name. Which file it is depends on the traits and scale (see `AssetCatalog`).
public struct ImageReference: Hashable, Sendable {
    public var name: String
    /// The theme asks the engine to keep the decoded image in memory.
    public var cache: Bool
    public init(name: String, cache: Bool = false) {
        self.name = name
        self.cache = cache
    }
}
