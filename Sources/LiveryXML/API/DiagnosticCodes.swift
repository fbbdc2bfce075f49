import LiveryModel

/// Every code the XML front end reports. Stable: tools match on them; docs/Diagnostics.md lists
/// each with an example. A fixture named after each lives in Tests/Fixtures/Invalid.
extension DiagnosticCode {
    // Files and folders
    public static let pathNotFound: DiagnosticCode = "path-not-found"
    public static let noThemes: DiagnosticCode = "no-themes"
    public static let fileUnreadable: DiagnosticCode = "file-unreadable"
    public static let fileIgnored: DiagnosticCode = "file-ignored"
    public static let fileLink: DiagnosticCode = "file-link"

    // Hostile input: a `FrontEndLimits` cap was exceeded (docs/Security.md)
    public static let limitExceeded: DiagnosticCode = "limit-exceeded"

    // XML syntax
    public static let xmlSyntax: DiagnosticCode = "xml-syntax"
    public static let xmlDoctype: DiagnosticCode = "xml-doctype"
    public static let xmlEncoding: DiagnosticCode = "xml-encoding"
    public static let xmlText: DiagnosticCode = "xml-text"

    // Structure
    public static let rootUnexpected: DiagnosticCode = "root-unexpected"
    public static let elementUnknown: DiagnosticCode = "element-unknown"
    public static let elementDuplicate: DiagnosticCode = "element-duplicate"
    public static let attributeMissing: DiagnosticCode = "attribute-missing"
    public static let attributeInvalid: DiagnosticCode = "attribute-invalid"
    public static let attributeUnknown: DiagnosticCode = "attribute-unknown"

    // Info.xml and theme chains
    public static let infoMissing: DiagnosticCode = "info-missing"
    public static let themeDuplicate: DiagnosticCode = "theme-duplicate"
    public static let parentMissing: DiagnosticCode = "parent-missing"
    public static let parentCycle: DiagnosticCode = "parent-cycle"

    // Qualifiers
    public static let qualifierUnknown: DiagnosticCode = "qualifier-unknown"
    public static let qualifierConflict: DiagnosticCode = "qualifier-conflict"

    // Values
    public static let valueInvalid: DiagnosticCode = "value-invalid"
    public static let referenceUnknown: DiagnosticCode = "reference-unknown"
    public static let referenceType: DiagnosticCode = "reference-type"
    public static let referenceCycle: DiagnosticCode = "reference-cycle"
    public static let referenceContent: DiagnosticCode = "reference-content"

    // Constants, classes, instances
    public static let constantDuplicate: DiagnosticCode = "constant-duplicate"
    public static let constantTypeChange: DiagnosticCode = "constant-type-change"
    public static let constantUnused: DiagnosticCode = "constant-unused"
    public static let classDuplicate: DiagnosticCode = "class-duplicate"
    public static let classUnknown: DiagnosticCode = "class-unknown"
    public static let classCycle: DiagnosticCode = "class-cycle"
    public static let classUnused: DiagnosticCode = "class-unused"
    public static let instanceDuplicate: DiagnosticCode = "instance-duplicate"
    public static let instanceComponentMismatch: DiagnosticCode = "instance-component-mismatch"
    public static let overrideRedundant: DiagnosticCode = "override-redundant"

    // Schema checks
    public static let componentUnknown: DiagnosticCode = "component-unknown"
    public static let operationUnknown: DiagnosticCode = "operation-unknown"
    public static let operationDuplicate: DiagnosticCode = "operation-duplicate"
    public static let stateUnknown: DiagnosticCode = "state-unknown"
    public static let stateNotAllowed: DiagnosticCode = "state-not-allowed"
    public static let paramMissing: DiagnosticCode = "param-missing"
    public static let paramDuplicate: DiagnosticCode = "param-duplicate"
    public static let paramUnknown: DiagnosticCode = "param-unknown"
    public static let paramType: DiagnosticCode = "param-type"
    public static let paramValueCount: DiagnosticCode = "param-value-count"
    public static let enumValue: DiagnosticCode = "enum-value"
    public static let schemaInvalid: DiagnosticCode = "schema-invalid"

    // Assets
    public static let assetMissing: DiagnosticCode = "asset-missing"
    public static let assetName: DiagnosticCode = "asset-name"
    public static let assetAmbiguous: DiagnosticCode = "asset-ambiguous"
    public static let assetUnused: DiagnosticCode = "asset-unused"

    // Accessibility (format 1.1, section 7.3)
    public static let contrastLow: DiagnosticCode = "contrast-low"
    /// A `contrast-with` that no lightening or darkening reaches (format 1.3, section 9.1).
    public static let contrastUnreachable: DiagnosticCode = "contrast-unreachable"
    /// A checked text/background pair a user's choice can make unreadable (format 1.3, 9.2).
    public static let contrastUnguarded: DiagnosticCode = "contrast-unguarded"

    /// Every code above, for tools that check a code a designer wrote (the severity configuration).
    public static let frontEndCodes: [DiagnosticCode] = [
        .pathNotFound, .noThemes, .fileUnreadable, .fileIgnored, .fileLink, .limitExceeded,
        .xmlSyntax, .xmlDoctype, .xmlEncoding, .xmlText,
        .rootUnexpected, .elementUnknown, .elementDuplicate, .attributeMissing, .attributeInvalid, .attributeUnknown,
        .infoMissing, .themeDuplicate, .parentMissing, .parentCycle, .qualifierUnknown, .qualifierConflict,
        .valueInvalid, .referenceUnknown, .referenceType, .referenceCycle, .referenceContent,
        .constantDuplicate, .constantTypeChange, .constantUnused, .classDuplicate, .classUnknown, .classCycle,
        .classUnused,
        .instanceDuplicate, .instanceComponentMismatch, .overrideRedundant,
        .componentUnknown, .operationUnknown, .operationDuplicate, .stateUnknown, .stateNotAllowed,
        .paramMissing, .paramDuplicate, .paramUnknown, .paramType, .paramValueCount, .enumValue, .schemaInvalid,
        .assetMissing, .assetName, .assetAmbiguous, .assetUnused, .contrastLow,
        .contrastUnreachable, .contrastUnguarded,
    ]
}
