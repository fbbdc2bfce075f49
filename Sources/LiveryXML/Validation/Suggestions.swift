import LiveryModel

/// "did you mean ...?" for names a designer mistyped. Public so the tools (explain, the
/// severity configuration) suggest by the same rule as the front end.
public enum Suggestions {
    /// The closest candidate within a small edit distance, as a sentence ending, or "".
    public static func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
        suggest(name, in: candidates).hint
    }

    /// The sentence ending and the fix replacing `name` with the closest candidate, if any.
    public static func suggest(_ name: String, in candidates: some Sequence<String>) -> (
        hint: String, fix: Diagnostic.Fix?
    ) {
        guard let best = closest(to: name, in: candidates) else { return ("", nil) }
        return ("; did you mean '\(best)'?", Diagnostic.Fix(replacing: name, with: best))
    }

    /// For a message that lists every allowed value: "; use one of a, b, c", and which one was
    /// most likely meant, with its fix: another tool's word for one ("; most likely 'highlighted'
    /// (another tool's word for it)"), or a typo of one ("; did you mean 'normal'?", no list).
    public static func listing(_ name: String, in candidates: [String]) -> (hint: String, fix: Diagnostic.Fix?) {
        let list = "; use one of \(candidates.joined(separator: ", "))"
        if let synonym = synonym(of: name, in: candidates) {
            return (
                "\(list); most likely '\(synonym)' ('\(name)' is another tool's word for it)",
                Diagnostic.Fix(replacing: name, with: synonym)
            )
        }
        let (hint, fix) = suggest(name, in: candidates)
        return (hint.isEmpty ? list : hint, fix)
    }

    /// A parent named by its theme's folder (`Base.theme`, `Base`, `Themes/Base.theme`) rather
    /// than by the id in that folder's Info.xml: the sentence ending and the fix to the id.
    /// `themes` are (folder path, id) of the themes that could be the parent.
    static func parentNamedByFolder(_ parent: String, themes: [(folder: String, id: String)]) -> (
        hint: String, fix: Diagnostic.Fix
    )? {
        let written = parent.hasSuffix("/") ? String(parent.dropLast()) : parent
        let name = String(written.split(separator: "/").last ?? "")
        guard !name.isEmpty else { return nil }
        let matches = themes.filter { theme in
            let folder = String(theme.folder.split(separator: "/").last ?? "")
            return folder == name || folder == name + ".theme"
        }
        guard matches.count == 1, let match = matches.first else { return nil }
        let folder = String(match.folder.split(separator: "/").last ?? "")
        return (
            "; '\(parent)' names the folder \(folder), and a parent is named by the id in its Info.xml: write '\(match.id)'",
            Diagnostic.Fix(replacing: parent, with: match.id)
        )
    }

    /// Past this many candidates no suggestion is made: a hostile theme with thousands of
    /// unknown references among thousands of names would otherwise cost their product in edit
    /// distances (docs/Security.md).
    static let maxCandidates = 200

    /// Words other tools use for what Livery names otherwise: CSS's `font-weight` for `weight`,
    /// UIKit's `pressed` state for `highlighted`, font foundries' `demibold` for `semibold`, an
    /// instance's `name` for its `id`. Each is offered only where its Livery word is a candidate,
    /// and before any spelling: a synonym is what was meant, however far its letters are.
    static let synonyms: [String: [String]] = [
        // attributes
        "name": ["id", "family"], "id": ["name"], "font-weight": ["weight"], "font-size": ["size"],
        "font-family": ["family"], "fontweight": ["weight"], "fontsize": ["size"], "fontfamily": ["family"],
        "typeface": ["family"], "font": ["family"], "letterspacing": ["letter-spacing"],
        "lineheight": ["line-height"], "tracking": ["letter-spacing"], "leading": ["line-height"],
        // states
        "pressed": ["highlighted"], "active": ["highlighted"], "hover": ["focused"], "hovered": ["focused"],
        "checked": ["selected"], "inactive": ["disabled"], "default": ["normal"], "enabled": ["normal"],
        // font weights
        "normal": ["regular"], "book": ["regular"], "roman": ["regular"], "demibold": ["semibold"],
        "demi-bold": ["semibold"], "semi-bold": ["semibold"], "extrabold": ["heavy"], "extra-bold": ["heavy"],
        "ultrabold": ["heavy"], "extralight": ["ultralight"], "extra-light": ["ultralight"],
        "ultra-light": ["ultralight"], "hairline": ["thin"],
        // typed objects, as Android resources and programming languages name them
        "dimen": ["float"], "number": ["float"], "double": ["float"], "int": ["integer"], "boolean": ["bool"],
        "text": ["string"], "drawable": ["image"], "mipmap": ["image"],
        // Android styles: a <style> of <item>s is a class of operations
        "style": ["class"], "item": ["operation"],
        // qualifiers, as Android resource folders name them
        "night": ["dark"], "notnight": ["light"], "tablet": ["ipad"],
    ]

    /// The Livery word for `name` as another tool writes it, when it is among `candidates`.
    public static func synonym(of name: String, in candidates: some Sequence<String>) -> String? {
        guard let meant = synonyms[name.lowercased()] else { return nil }
        return candidates.first { meant.contains($0) }
    }

    public static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        if let synonym = synonym(of: name, in: candidates) { return synonym }
        let lowered = Array(name.lowercased())
        var best: (distance: Int, name: String)?
        var count = 0
        for candidate in candidates {
            count += 1
            guard count <= maxCandidates else { return nil }
            // The distance is at least the difference in length, and at most 3 is suggested.
            guard abs(candidate.utf8.count - lowered.count) <= 3 * 4 else { continue }
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            let limit = max(1, min(3, candidate.count / 3))
            if distance <= limit,
                best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.name)
            {
                best = (distance, candidate)
            }
        }
        return best?.name
    }

    /// Edit distance where swapping two neighbouring letters counts as one edit (optimal string
    /// alignment), since `brnad` for `brand` is the commonest typo of all.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        for i in 1...a.count {
            let beforePrevious = previous
            previous = row
            row = Array(repeating: 0, count: b.count + 1)
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
        }
        return row[b.count]
    }
}
