extension Diagnostic {
    /// A change that fixes a finding, offered where it is certain enough (a did-you-mean, another
    /// tool's notation read as meant, a definition moved to where it is visible): one or more
    /// text edits, in one file or several, each of one or more lines, applied together, all of
    /// them or none. Editors, SARIF consumers and `applied(at:reading:)` apply it.
    public struct Fix: Hashable, Sendable {
        /// What the fix does, in a few words, for an editor's menu (`Replace 'clas' with 'class'`).
        public var title: String
        /// The edits, never empty. No two overlap (`applied(at:reading:)` refuses a fix whose do).
        public private(set) var edits: [Edit]

        /// One text edit: `replaced`, found at `location`, becomes `replacement`.
        ///
        /// The edit's range is the first occurrence of `replaced` starting on the location's line,
        /// at or after its column, and standing alone (an end of it that is a letter or digit does
        /// not continue a word: `red`, not the start of `reddish`); `replaced` may span lines. An
        /// empty `replaced` inserts at the column itself. Naming the text an edit replaces, not
        /// only its place, means an edit never lands in the wrong place of a file changed since.
        public struct Edit: Hashable, Sendable {
            /// Where `replaced` starts (file, line, column); nil for the finding's own location.
            public var location: SourceLocation?
            /// The text replaced, possibly several lines; empty to insert.
            public var replaced: String
            public var replacement: String

            public init(at location: SourceLocation? = nil, replacing replaced: String, with replacement: String) {
                self.location = location
                self.replaced = replaced
                self.replacement = replacement
            }

            /// Where the edit's text stands, searched on a text's lines from `anchor` (the edit's
            /// location or, without one, the finding's); nil when it is not there.
            /// - Parameters:
            ///   - anchor: where the search starts: the edit's location or the finding's.
            ///   - line: a 1-based line's text without its line end, nil past the end.
            public func span(from anchor: SourceLocation, lines line: (Int) -> Substring?) -> TextSpan? {
                guard let number = anchor.line, let first = line(number) else { return nil }
                let characters = Array(first)
                let from = max((anchor.column ?? 1) - 1, 0)
                let parts = replaced.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(
                    Array.init)
                guard from <= characters.count else { return nil }
                if replaced.isEmpty {
                    return TextSpan(
                        start: .init(line: number, column: from + 1), end: .init(line: number, column: from + 1))
                }
                if parts.count == 1 {
                    let target = parts[0]
                    guard characters.count >= target.count, from <= characters.count - target.count else { return nil }
                    for start in from...(characters.count - target.count)
                    where Array(characters[start..<(start + target.count)]) == target
                        && Self.standsAlone(
                            target, before: start == 0 ? nil : characters[start - 1],
                            after: start + target.count == characters.count ? nil : characters[start + target.count])
                    {
                        return TextSpan(
                            start: .init(line: number, column: start + 1),
                            end: .init(line: number, column: start + target.count + 1))
                    }
                    return nil
                }
                // Several lines: the first part ends its line, the middle ones are whole lines, and
                // the last one starts its line.
                let head = parts[0]
                let start = characters.count - head.count
                guard start >= from, Array(characters[start...]) == head,
                    Self.standsAlone(head, before: start == 0 ? nil : characters[start - 1], after: nil)
                else { return nil }
                for (offset, part) in parts.enumerated().dropFirst() {
                    guard let text = line(number + offset).map(Array.init) else { return nil }
                    if offset < parts.count - 1 {
                        guard text == part else { return nil }
                    } else {
                        guard text.starts(with: part),
                            Self.standsAlone(
                                part, before: nil, after: part.count == text.count ? nil : text[part.count])
                        else { return nil }
                    }
                }
                return TextSpan(
                    start: .init(line: number, column: start + 1),
                    end: .init(line: number + parts.count - 1, column: parts[parts.count - 1].count + 1))
            }

            /// An end of `target` that is a letter or digit must not continue a word (`&nbsp;` may
            /// touch the word after it; `red` not `reddish`).
            static func standsAlone(_ target: [Character], before: Character?, after: Character?) -> Bool {
                func isWord(_ character: Character?) -> Bool { character.map { $0.isLetter || $0.isNumber } ?? false }
                if isWord(target.first), isWord(before) { return false }
                if isWord(target.last), isWord(after) { return false }
                return true
            }
        }

        /// A did-you-mean: replace `replaced` at the finding's location with `replacement`, and at
        /// each place of `elsewhere` too (the end tag of a renamed element).
        public init(replacing replaced: String, with replacement: String, alsoAt elsewhere: [SourceLocation] = []) {
            title = "Replace '\(replaced)' with '\(replacement)'"
            edits = [Edit(replacing: replaced, with: replacement)]
            replace(at: elsewhere)
        }

        /// A fix of several edits; `edits` must not be empty.
        public init(_ title: String, edits: [Edit]) {
            precondition(!edits.isEmpty, "a fix has at least one edit")
            self.title = title
            self.edits = edits
        }

        /// The first edit's text: for a did-you-mean, the name written.
        public var replaced: String { edits[0].replaced }
        /// The first edit's replacement: for a did-you-mean, the name meant.
        public var replacement: String { edits[0].replacement }

        /// Adds the first edit's replacement at further places (a renamed element's end tag).
        public mutating func replace(at places: [SourceLocation]) {
            let first = edits[0]
            edits += places.map { Edit(at: $0, replacing: first.replaced, with: first.replacement) }
        }

        /// The edits with every location made explicit (an edit without one is at `finding`); nil
        /// when an edit has no place (no location of its own, and the finding has none).
        public func placed(at finding: SourceLocation?) -> [(location: SourceLocation, edit: Edit)]? {
            var result: [(SourceLocation, Edit)] = []
            for edit in edits {
                guard let location = edit.location ?? finding, location.line != nil else { return nil }
                result.append((location, edit))
            }
            return result
        }

        /// The same fix with the paths of its edits' locations mapped (made relative, or standard).
        public func mappingPaths(_ path: (String) -> String) -> Fix {
            var fix = self
            for index in fix.edits.indices where fix.edits[index].location != nil {
                fix.edits[index].location!.file = path(fix.edits[index].location!.file)
            }
            return fix
        }

        /// The files the fix changes, each with its whole new text, in the order the edits first
        /// name them. `read` gives a file's current text by the path an edit names. The edits of
        /// a file are located on its text as it is and checked not to overlap; a fix that does
        /// not apply whole throws, and changes nothing.
        public func applied(at finding: SourceLocation?, reading read: (String) -> String?) throws(FixError) -> [(
            file: String, text: String
        )] {
            guard let placed = placed(at: finding) else { throw .unplaced }
            var files: [String] = []
            for (location, _) in placed where !files.contains(location.file) { files.append(location.file) }
            var result: [(file: String, text: String)] = []
            for file in files {
                guard let text = read(file) else { throw .unreadable(file: file) }
                let lines = TextLines(text)
                var located: [(span: TextSpan, location: SourceLocation, edit: Edit)] = []
                for (location, edit) in placed where location.file == file {
                    guard let span = edit.span(from: location, lines: lines.line) else {
                        throw .notFound(edit.replaced, at: location)
                    }
                    located.append((span, location, edit))
                }
                located.sort { $0.span.start < $1.span.start }
                for (a, b) in zip(located, located.dropFirst()) where a.span.overlaps(b.span) {
                    throw .overlapping(a.location, b.location)
                }
                // Each range is one of the text as it is: the new text is built from the original's
                // pieces between them, so no edit moves another's range.
                var new = ""
                var cursor = text.startIndex
                for item in located {
                    guard let lower = lines.index(item.span.start), let upper = lines.index(item.span.end) else {
                        throw .notFound(item.edit.replaced, at: item.location)
                    }
                    new += text[cursor..<lower]
                    new += item.edit.replacement
                    cursor = upper
                }
                new += text[cursor...]
                result.append((file, new))
            }
            return result
        }
    }

    /// Why a fix could not be applied.
    public enum FixError: Error, Hashable, Sendable, CustomStringConvertible {
        /// An edit has no location, and neither has its finding.
        case unplaced
        case unreadable(file: String)
        /// An edit's text is not where it should be: the file changed since it was checked.
        case notFound(String, at: SourceLocation)
        /// Two edits of the fix touch the same text: applying both is not defined.
        case overlapping(SourceLocation, SourceLocation)

        public var description: String {
            switch self {
            case .unplaced: return "the fix has an edit with no place"
            case .unreadable(let file): return "cannot read \(file)"
            case .notFound(let text, let location):
                return "'\(text)' is not at \(location) any more: the file changed since it was checked; check it again"
            case .overlapping(let a, let b):
                return "two edits of the fix overlap, at \(a) and at \(b); it cannot be applied"
            }
        }
    }
}

/// A range of a text, between two places given as 1-based lines and columns in characters; the
/// end is just past the last character (equal to the start for an insertion).
public struct TextSpan: Hashable, Sendable {
    public struct Point: Hashable, Sendable, Comparable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        public static func < (lhs: Point, rhs: Point) -> Bool { (lhs.line, lhs.column) < (rhs.line, rhs.column) }
    }

    public var start: Point
    public var end: Point

    public init(start: Point, end: Point) {
        self.start = start
        self.end = end
    }

    public var isEmpty: Bool { start == end }

    /// Whether two spans share a character, or one inserts where the other starts (which goes
    /// first would not be defined); two spans that merely touch do not overlap.
    public func overlaps(_ other: TextSpan) -> Bool {
        if start == other.start { return true }
        return start < other.end && other.start < end
    }
}

/// A text cut into lines to locate and apply edits: 1-based lines without their ends (`\n` or
/// `\r\n`), columns counted in characters.
public struct TextLines: Sendable {
    public let text: String
    private let lines: [Range<String.Index>]

    public init(_ text: String) {
        self.text = text
        var lines: [Range<String.Index>] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            if text[index].isNewline {
                lines.append(start..<index)
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        lines.append(start..<text.endIndex)
        self.lines = lines
    }

    public var count: Int { lines.count }

    /// A 1-based line's text, without its end; nil past the text.
    public func line(_ number: Int) -> Substring? {
        number >= 1 && number <= lines.count ? text[lines[number - 1]] : nil
    }

    /// The index of a place in `text`; the column just past a line's last character is its end.
    public func index(_ point: TextSpan.Point) -> String.Index? {
        guard point.line >= 1, point.line <= lines.count, point.column >= 1 else { return nil }
        let range = lines[point.line - 1]
        return text.index(range.lowerBound, offsetBy: point.column - 1, limitedBy: range.upperBound)
    }
}
