/// The enum value types of the standard schema, in the runtime so that every toolkit adapter
/// (the headless components, GTK, UIKit) converts theme values to the same Swift types.

/// How text lines up; the values of the schema's `textAlignment` enum.
public enum TextAlignment: String, CaseIterable, Sendable, ThemeValueConvertible {
    case left, center, right, justified, natural
}

/// How an image fills its view; the values of the schema's `contentMode` enum.
public enum ContentMode: String, CaseIterable, Sendable, ThemeValueConvertible {
    case scaleToFill, scaleAspectFit, scaleAspectFill, center, top, bottom, left, right
}

/// A text field's border; the values of the schema's `borderStyle` enum.
public enum BorderStyle: String, CaseIterable, Sendable, ThemeValueConvertible {
    case none, line, bezel, roundedRect
}
