import LiveryModel

/// What a setter needs besides the value itself: images are resolved to files (and decoded,
/// possibly from the shared cache) only when a setter asks for them.
///
/// Not isolated: values are decoded off the main actor when a theme is prepared ahead
/// (`Applicator.preload`). Such a context has no images (operations with images are decoded
/// when applied, on the main actor), and only one made on the main actor has them.
public struct ValueContext {
    /// One reference only: the context is passed to every setter call of a switch.
    let images: ImageLoader?

    init(images: ImageLoader?) {
        self.images = images
    }

    /// A context without images: values decoded ahead of applying.
    @usableFromInline
    init() {
        images = nil
    }

    /// The image the reference names for the active traits and scale, or nil (with a finding)
    /// when its file cannot be read; always nil while a theme is prepared ahead.
    public func image(_ reference: ImageReference) -> ThemeImage? {
        guard let images else { return nil }
        return MainActor.assumeIsolated { images.image(reference) }
    }
}

/// A Swift type a theme value can be turned into. Setters declare the type they take; the
/// runtime converts once per operation and reports a mismatch instead of trapping.
///
/// The conversion is not isolated to the main actor: a theme prepared ahead
/// (`Applicator.preload`) converts its values on another thread. It must be a pure function of
/// the value (creating a colour or font object is; touching a view is not).
public protocol ThemeValueConvertible: SendableMetatype {
    /// The value as `Self`, or nil when the theme's value has another type.
    static func fromThemeValue(_ value: Value, in context: ValueContext) -> Self?
}

extension Double: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Double? {
        switch value {
        case .float(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }
}

extension Int: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Int? {
        if case .integer(let number) = value { return Int(exactly: number) }
        return nil
    }
}

extension Bool: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }
}

extension String: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> String? {
        switch value {
        case .string(let text), .enumeration(let text): text
        default: nil
        }
    }
}

extension Color: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Color? {
        if case .color(let color) = value { return color }
        return nil
    }
}

extension Point: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Point? {
        if case .point(let point) = value { return point }
        return nil
    }
}

extension Size: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Size? {
        if case .size(let size) = value { return size }
        return nil
    }
}

extension Rect: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Rect? {
        if case .rect(let rect) = value { return rect }
        return nil
    }
}

extension Insets: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Insets? {
        if case .insets(let insets) = value { return insets }
        return nil
    }
}

extension Font: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Font? {
        if case .font(let font) = value { return font }
        return nil
    }
}

extension Value: ThemeValueConvertible {
    /// The raw value, for setters that want to interpret it themselves.
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Value? { value }
}

extension ThemeImage: ThemeValueConvertible {
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Self? {
        guard case .image(let reference) = value else { return nil }
        return context.image(reference) as? Self
    }
}

extension Optional: ThemeValueConvertible where Wrapped: ThemeValueConvertible {
    /// Lets a setter take `Color?` (the property's type) while the theme always gives a colour;
    /// the optional is what revert restores when the original was "unset". `@inlinable`, as are
    /// the other generic conversions here: a binding declared in another module (an app's) calls
    /// them from its specialised setter; compiled here only, they would run generic and make
    /// `Optional<Wrapped>`'s metadata for every value a theme prepares (the first-application row
    /// of `livery-bench report`).
    @inlinable
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Wrapped?? {
        // `if let`, not `Optional.map`: a closure literal handed to the standard library from
        // isolated code gets a dynamic isolation check per call.
        if let wrapped = Wrapped.fromThemeValue(value, in: context) { return .some(wrapped) }
        return nil
    }
}

extension Array: ThemeValueConvertible where Element: ThemeValueConvertible {
    @inlinable
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> [Element]? {
        guard case .array(let items) = value else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let element = Element.fromThemeValue(item, in: context) else { return nil }
            result.append(element)
        }
        return result
    }
}

extension ThemeValueConvertible where Self: RawRepresentable, RawValue == String {
    /// Enums of the app convert from `<enum>` values by raw value: declare the conformance and
    /// nothing else.
    @inlinable
    public static func fromThemeValue(_ value: Value, in context: ValueContext) -> Self? {
        if case .enumeration(let text) = value { return Self(rawValue: text) }
        return nil
    }
}
