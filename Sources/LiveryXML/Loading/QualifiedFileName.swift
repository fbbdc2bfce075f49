import LiveryModel

/// A file name split into its parts: `bubble@2x~ipad.png` is base `bubble`, scale 2, qualifiers
/// `{ipad}`, extension `png`. Tags are case-insensitive; `@Nx` may stand before or after them.
struct QualifiedFileName {
    var base: String
    var qualifiers: TraitSet
    var scale: Int
    var pathExtension: String

    enum Problem: Error {
        case tag(TraitSet.TagError)
        case scale(String)
        /// A qualifier written with another tool's separator (`Chat-dark.xml`, `Chat_dark.xml`,
        /// `Chat.Dark.xml`, `bubble@dark.png`): the separator and the tag.
        case separator(Character, String)
    }

    /// The tag at the end of `base` after `-`, `_` or `.` (`Chat-dark`: `-`, `dark`), when it is
    /// a qualifier: a name written as another tool names variants. One scan for the separator;
    /// most names have none.
    static func separatedTag(in base: Substring, dimensions: TraitDimensions = .standard) -> (Character, String)? {
        guard let at = base.lastIndex(where: { $0 == "-" || $0 == "_" || $0 == "." }), at != base.startIndex else {
            return nil
        }
        let tag = base[base.index(after: at)...].lowercased()
        guard dimensions.position(of: tag) != nil else { return nil }
        return (base[at], tag)
    }

    /// Parses `name` with the tags of `dimensions` (the standard ones and those the theme's
    /// chain declares).
    static func parse(_ name: String, dimensions: TraitDimensions = .standard) throws(Problem) -> QualifiedFileName {
        let dot = name.lastIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name
        let pathExtension = dot.map { String(name[name.index(after: $0)...]) } ?? ""
        var segments = stem.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
        var scale: Int?
        for index in segments.indices {
            guard let at = segments[index].firstIndex(of: "@") else { continue }
            let suffix = segments[index][segments[index].index(after: at)...].lowercased()
            guard suffix.hasSuffix("x"), let value = Int(suffix.dropLast()), (1...9).contains(value), scale == nil
            else {
                if dimensions.position(of: suffix) != nil { throw .separator("@", suffix) }
                throw .scale(String(segments[index][at...]))
            }
            scale = value
            segments[index] = String(segments[index][..<at])
        }
        if segments.count == 1, let (separator, tag) = separatedTag(in: segments[0][...], dimensions: dimensions) {
            throw .separator(separator, tag)
        }
        let qualifiers: TraitSet
        do {
            qualifiers = try dimensions.traits(tags: segments.dropFirst())
        } catch {
            throw .tag(error)
        }
        return QualifiedFileName(
            base: segments[0], qualifiers: qualifiers, scale: scale ?? 1, pathExtension: pathExtension)
    }

    /// A diagnostic for a name that does not parse, located at the file.
    static func diagnostic(
        for problem: Problem, file: String, location: SourceLocation, dimensions: TraitDimensions = .standard
    ) -> Diagnostic {
        switch problem {
        case .tag(.unknown(let tag)):
            let known = dimensions.knownTags
            // Qualifiers are short words: 'night' is one letter from 'light' but no typo of it.
            // A suggestion must keep the first letter, which typos rarely change.
            let lowered = tag.lowercased()
            // another tool's word for a qualifier (Android's `night`) is meant, whatever its letters
            let hint =
                Suggestions.synonym(of: lowered, in: known) != nil
                ? Suggestions.listing(lowered, in: known).hint
                : Suggestions.didYouMean(lowered, in: known.filter { $0.first == lowered.first })
            return .error(
                .qualifierUnknown,
                "unknown qualifier '~\(tag)' in '\(file)'\(hint.isEmpty ? "; use one of \(known.joined(separator: ", "))" : hint)",
                at: location)
        case .tag(.conflict(let first, let second)):
            return .error(
                .qualifierConflict,
                "'\(file)' has two qualifiers of one dimension ('~\(first)' and '~\(second)'); keep one",
                at: location)
        case .separator(let separator, let tag):
            let meant = renamed(file, separator: separator, tag: tag)
            return .error(
                .qualifierUnknown,
                "'\(file)' names a variant with '\(separator)\(tag)'; Livery's qualifiers follow '~': rename it \(meant)",
                at: location)
        case .scale(let text):
            return .error(
                .qualifierUnknown, "'\(text)' in '\(file)' is not a scale; write @2x or @3x, once", at: location)
        }
    }
}

extension QualifiedFileName {
    /// `file` with its qualifier written after `~`: `Chat-dark.xml` is `Chat~dark.xml`.
    static func renamed(_ file: String, separator: Character, tag: String) -> String {
        let dot = file.lastIndex(of: ".")
        let stem = dot.map { file[..<$0] } ?? file[...]
        let pathExtension = dot.map { file[$0...] } ?? ""
        guard let at = stem.lastIndex(of: separator) else { return file }
        // a scale after the tag (`bubble@dark@2x`) stays after it
        let rest = stem[stem.index(after: at)...].dropFirst(tag.count)
        return stem[..<at] + "~" + tag + rest + pathExtension
    }
}

extension TraitSet {
    /// The trait set a theme file's name qualifies (`Chat~ipad~dark.xml`: ipad and dark; `Chat.xml`:
    /// none), or nil when its qualifiers do not parse.
    public init?(qualifyingFileNamed name: String) {
        guard let parsed = try? QualifiedFileName.parse(name) else { return nil }
        self = parsed.qualifiers
    }
}
