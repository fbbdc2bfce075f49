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

/// The component types of the standard schema and the one each extends: what a binding
/// registered without `extends:` inherits by, in development and release builds alike (a release
/// build has no schema). Another component's binding names its parent (`extends:`).
public enum StandardComponents {
    public static let parents: [String: String?] = [
        "uiview": nil,
        "uilabel": "uiview", "uibutton": "uiview", "uiimageview": "uiview", "uiswitch": "uiview",
        "uislider": "uiview", "uiprogressview": "uiview", "uitextfield": "uiview", "uitextview": "uiview",
        "uinavigationbar": "uiview",
    ]

    /// The type `component` extends in the standard schema; nil for `uiview` and for a type the
    /// standard schema does not declare.
    public static func parent(of component: String) -> String? {
        parents[component] ?? nil
    }
}
