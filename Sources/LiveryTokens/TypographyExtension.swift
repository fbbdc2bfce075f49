import LiveryModel

/// Livery's record in a typography token's `$extensions` (format 1.2, section 8).
///
/// DTCG requires every member of a typography value, while a Livery font may lack its letter
/// spacing or line height (absent is not 0: absent means the platform's default). Export writes
/// the neutral value for a missing member (`letterSpacing` 0px, `lineHeight` 1) and names it here;
/// import reads the record and leaves those members out again, so both round trips are exact:
///
///     "$extensions": {"com.livery": {"absent": ["letterSpacing", "lineHeight"]}}
///
/// A missing size needs no record: `fontSize` 0px already means "no size" on import. Import
/// accepts `fontSize` in the list all the same. A record of another shape is ignored, as vendor
/// data a tool does not understand should be.
public enum TypographyExtension {
    public static let vendor = "com.livery"
    public static let recordable: Set<String> = ["fontSize", "letterSpacing", "lineHeight"]

    /// The members a token's `$extensions` says the font lacked.
    public static func absentMembers(of extensions: JSONNode?) -> Set<String> {
        guard let list = extensions?[vendor]?["absent"]?.array else { return [] }
        return Set(list.compactMap(\.string).filter(recordable.contains))
    }

    /// The `$extensions` object recording `absent` members; nil when none is absent.
    public static func extensions(absent: [String]) -> JSONValue? {
        guard !absent.isEmpty else { return nil }
        return .object([(vendor, .object([("absent", .array(absent.map(JSONValue.string)))]))])
    }
}
