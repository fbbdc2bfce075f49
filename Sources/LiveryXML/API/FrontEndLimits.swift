/// Caps on what the XML front end reads, so hostile input fails fast with a located error
/// instead of exhausting memory. libxml2's own limits (names up to 50,000 bytes, text nodes up
/// to 10 MB, depth 256) apply underneath; `XML_PARSE_HUGE` is never used.
public struct FrontEndLimits: Sendable, Hashable {
    /// Largest XML file read, in bytes.
    public var maxFileBytes = 64 << 20
    /// Most entries directly in a theme folder.
    public var maxFilesPerTheme = 10_000
    /// Most asset files under `assets/`.
    public var maxAssetsPerTheme = 100_000

    public init() {}

    public static let `default` = FrontEndLimits()
}
