/// The enum value types of the standard schema, in the runtime so that every toolkit adapter
/// (the headless components, GTK, UIKit) converts theme values to the same Swift types.

/// How text lines up; the values of the schema's `textAlignment` enum.
public enum TextAlignment: String, CaseIterable, Sendable, ThemeValueConvertible {
    /// Lines start at the left edge.
    case left
    /// Lines are centred.
    case center
    /// Lines end at the right edge.
    case right
    /// Lines fill the width, the last one aligned naturally.
    case justified
    /// Lines start at the leading edge of the text's writing direction.
    case natural
}

/// How an image fills its view; the values of the schema's `contentMode` enum.
public enum ContentMode: String, CaseIterable, Sendable, ThemeValueConvertible {
    /// Stretched to fill the view, the aspect ratio not kept.
    case scaleToFill
    /// Scaled to fit inside the view, the aspect ratio kept.
    case scaleAspectFit
    /// Scaled to cover the view, the aspect ratio kept; the excess is cropped or overflows.
    case scaleAspectFill
    /// Unscaled, centred.
    case center
    /// Unscaled, centred along the top edge.
    case top
    /// Unscaled, centred along the bottom edge.
    case bottom
    /// Unscaled, centred along the left edge.
    case left
    /// Unscaled, centred along the right edge.
    case right
}

/// A text field's border; the values of the schema's `borderStyle` enum.
public enum BorderStyle: String, CaseIterable, Sendable, ThemeValueConvertible {
    /// No border.
    case none
    /// A thin rectangle.
    case line
    /// A bezelled, inset rectangle.
    case bezel
    /// A rectangle with rounded corners (the platform's standard field).
    case roundedRect
}

/// The component types of the standard schema and the one each extends: what a binding
/// registered without `extends:` inherits by, in development and release builds alike (a release
/// build has no schema). Another component's binding names its parent (`extends:`).
public enum StandardComponents {
    /// Each standard component type and the type it extends (nil for `uiview`).
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
