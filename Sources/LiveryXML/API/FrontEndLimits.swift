/// Caps on what the XML front end reads, so hostile input (a theme downloaded from anywhere) fails
/// fast with a located error instead of exhausting memory or time. One value, passed to
/// `ThemeWorkspace(limits:)`; the defaults are far above what real themes need and low enough
/// that the worst input allowed stays within a second and a few hundred megabytes
/// (`Benchmarks/Scripts/attack-timings.sh` runs the attack matrix against them).
///
/// Exceeding a limit is a `limit-exceeded` error at the place where the input went over (file,
/// line and column inside a file; the file for files and assets), except for the two limits that
/// predate that code and keep their published codes: `maxFileBytes` (`file-unreadable`) and
/// `maxFilesPerTheme` / `maxAssetsPerTheme` (`file-ignored`).
///
/// libxml2's own limits (names up to 50,000 bytes, text nodes up to 10,000,000 bytes, depth 256)
/// stay in force underneath: `XML_PARSE_HUGE` is never used. The compiled format has its own caps
/// in `LiveryBinary.VerificationLimits` (compiled file size, strings, instances, array depth...),
/// checked when a compiled file is opened. docs/Security.md lists both.
public struct FrontEndLimits: Sendable, Hashable {
    // Files and folders

    /// Largest XML file read, in bytes (`file-unreadable`). At most 2 GiB: nodes keep 32-bit offsets.
    public var maxFileBytes = 64 << 20 {
        didSet { maxFileBytes = min(maxFileBytes, Int(Int32.max) - 1) }
    }
    /// Most entries directly in a theme folder (`file-ignored`; the rest are not read).
    public var maxFilesPerTheme = 10_000
    /// Most files and folders under `assets/` (`file-ignored`; the rest are not read).
    public var maxAssetsPerTheme = 100_000
    /// Largest asset file, in bytes: it is copied whole into the compiled file.
    public var maxAssetBytes = 32 << 20
    /// Most bytes of all asset files of one theme together.
    public var maxTotalAssetBytes = 256 << 20

    // Inside one XML file (checked while libxml2 parses, which stops at the first one exceeded)

    /// Deepest nesting of elements; a theme needs about 8 (`theme > instances > uibutton >
    /// operation > param > array > ...`).
    public var maxElementDepth = 32
    /// Longest element or attribute name (prefix included), in bytes.
    public var maxNameBytes = 256
    /// Longest attribute value, in bytes (ids, class lists, font families, references).
    public var maxAttributeValueBytes = 4096
    /// Most attributes on one element.
    public var maxAttributesPerElement = 32
    /// Longest text directly inside one element (a `<string>` value, say), in bytes after
    /// entities are decoded.
    public var maxTextBytes = 1 << 20
    /// Most XML syntax errors reported for one file; past them parsing stops with a
    /// `limit-exceeded` error. libxml2 goes on after the first error, and a few kilobytes of
    /// broken XML can give thousands.
    public var maxXMLErrorsPerFile = 100

    // Theme contents (checked while decoding)

    /// Most instance elements in one theme, over all its configuration files.
    public var maxInstances = 250_000
    /// Most `<operation>` elements in one instance or class.
    public var maxOperationsPerInstance = 1_000
    /// Most elements in one `<array>`.
    public var maxArrayLength = 10_000
    /// Deepest nesting of `<array>` in `<array>`; the compiled format stores at most 16
    /// (`VerificationLimits.maxArrayDepth`).
    public var maxArrayDepth = 16

    // Resolution

    /// Longest chain of constants referring to constants (`ref`), or of classes including classes;
    /// real themes need a handful, and resolution recurses once per link, so the cap also bounds
    /// the stack.
    public var maxReferenceDepth = 100

    public init() {}

    public static let `default` = FrontEndLimits()
}
