import LiveryModel

/// The codes of design-token findings (docs/Diagnostics.md, "Design tokens").
extension DiagnosticCode {
    /// The file is not JSON (or breaks a reader limit): syntax, depth, size, encoding.
    public static let tokensJSON: DiagnosticCode = "tokens-json"
    /// A group or token breaks the format's structure: a name with `{`, `}` or `.`, an unknown
    /// `$` property, a token with children, `$value` and `$ref` together, metadata of the wrong kind.
    public static let tokenStructure: DiagnosticCode = "token-structure"
    /// `$type` is missing (and not inherited) or names no type of the format.
    public static let tokenType: DiagnosticCode = "token-type"
    /// A `$value` does not fit its type (range, unit, missing property, wrong kind).
    public static let tokenValue: DiagnosticCode = "token-value"
    /// An alias or JSON Pointer names nothing, names a group or metadata, or is malformed.
    public static let tokenReference: DiagnosticCode = "token-reference"
    /// An alias or JSON Pointer leads back to itself.
    public static let tokenReferenceCycle: DiagnosticCode = "token-reference-cycle"
    /// An alias names a token of another type than the place needs.
    public static let tokenReferenceType: DiagnosticCode = "token-reference-type"
    /// `$extends` names nothing, a token, or makes a cycle.
    public static let tokenExtends: DiagnosticCode = "token-extends"
    /// Two token paths become the same constant name.
    public static let tokenNameCollision: DiagnosticCode = "token-name-collision"
    /// A warning: a token used by an alias is `$deprecated`.
    public static let tokenDeprecated: DiagnosticCode = "token-deprecated"
    /// A warning: tokens of types Livery has no constant for were skipped (one finding lists them).
    public static let tokenSkipped: DiagnosticCode = "token-skipped"
    /// A warning: a colour outside the sRGB gamut was mapped into it.
    public static let colorOutOfGamut: DiagnosticCode = "color-out-of-gamut"
    /// The resolver document is malformed, or one of its modifiers' contexts maps to no qualifier.
    public static let tokenResolver: DiagnosticCode = "token-resolver"
    /// The theme folder could not be written (nothing was changed).
    public static let tokensWriteFailed: DiagnosticCode = "tokens-write-failed"
}
