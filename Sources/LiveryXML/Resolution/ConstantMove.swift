import LiveryModel

/// The fix of a parent's reference to a constant that only a theme below it defines: the
/// definition moved up, out of the child's file into the parent's `<constants>`.
///
/// Moving, not copying, is the fix: the child and the themes below it then inherit the value
/// they had, so nothing changes for them, while a copy would leave the child repeating its
/// parent. (Copying is for a parent that should have a value of its own; the message says so.)
/// The fix is offered only where it is certain: a literal value (a `ref` or a derived colour
/// may name what the parent does not have either) defined in a file without qualifiers (a
/// qualified value is not the one for every trait set).
enum ConstantMove {
    static func fix(_ constant: ConstantSyntax, into owner: DecodedThemeFolder, referencedAt reference: SourceLocation)
        -> Diagnostic.Fix?
    {
        guard case .literal = constant.object.content else { return nil }
        let source = constant.mark.source
        let start = Int(constant.mark.offset)
        guard let extent = EndTags.extent(ofElementAt: start, in: source.bytes) else { return nil }
        let written = String(decoding: source.bytes[extent], as: UTF8.self)
        let indentation = source.startsItsLine(start) ? source.indentation(ofLineAt: start) : ""
        guard let (insertion, target) = insertion(of: written, indented: indentation, into: owner, reference: reference)
        else { return nil }
        return Diagnostic.Fix(
            "Move '\(constant.name)' up from \(display(source.path)) into \(display(target))",
            edits: [insertion, source.removal(of: extent)])
    }

    /// Where the definition goes in the parent: before the end of the `<constants>` of its file
    /// without qualifiers that defines the most constants (its palette); without one, a new
    /// `<constants>` section first in the file holding the reference (or another file without
    /// qualifiers).
    static func insertion(
        of written: String, indented from: String, into owner: DecodedThemeFolder, reference: SourceLocation
    )
        -> (Diagnostic.Fix.Edit, String)?
    {
        let plain = owner.files.filter { $0.qualifiers == .none }
        if let file = plain.filter({ !$0.constants.isEmpty }).max(by: { $0.constants.count < $1.constants.count }),
            let last = file.constants.last
        {
            let source = last.mark.source
            let lastStart = Int(last.mark.offset)
            guard let lastEnd = EndTags.extent(ofElementAt: lastStart, in: source.bytes)?.upperBound,
                let close = first(.end, "constants", in: source.bytes, from: lastEnd)
            else { return nil }
            let indentation = source.startsItsLine(lastStart) ? source.indentation(ofLineAt: lastStart) : from
            let text = reindented(written, from: from, to: indentation)
            if source.startsItsLine(close) {
                let lineStart = close - source.indentation(ofLineAt: close).utf8.count
                return (source.insertion(indentation + text + "\n", at: lineStart), source.path)
            }
            return (source.insertion(text, at: close), source.path)
        }
        // No constants yet: a section of its own, first in the file.
        let holding = plain.first { file in sources(of: file).contains { $0.path == reference.file } }
        guard let file = holding ?? plain.first, let source = sources(of: file).first,
            let root = first(.start, "theme", in: source.bytes, from: 0),
            let (afterRoot, empty) = EndTags.endOfStartTag(at: root, in: source.bytes), !empty
        else { return nil }
        let section =
            afterRoot < source.bytes.count
            ? source.indentation(ofLineAt: nextLine(after: afterRoot, in: source.bytes)) : ""
        let unit = section.isEmpty ? "  " : section
        let text = reindented(written, from: from, to: section + unit)
        return (
            source.insertion(
                "\n\(section)<constants>\n\(section + unit)\(text)\n\(section)</constants>", at: afterRoot),
            source.path
        )
    }

    /// The source of a configuration file, through any of its definitions.
    static func sources(of file: ConfigurationFile) -> [SourceText] {
        (file.instances.first?.mark.source).map { [$0] } ?? (file.classes.first?.mark.source).map { [$0] }
            ?? (file.constants.first?.mark.source).map { [$0] } ?? []
    }

    /// The element's text with its lines after the first moved from one indentation to another.
    static func reindented(_ text: String, from: String, to: String) -> String {
        guard from != to else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return
            ([String(lines[0])]
            + lines.dropFirst().map { $0.hasPrefix(from) ? to + $0.dropFirst(from.count) : String($0) })
            .joined(separator: "\n")
    }

    enum Tag { case start, end }

    /// The offset of the first start or end tag named `name` at or after `from`.
    static func first(_ tag: Tag, _ name: String, in bytes: [UInt8], from: Int) -> Int? {
        var tokens = MarkupTokens(bytes, from: from)
        while let token = tokens.next() {
            switch (tag, token.kind) {
            case (.start, .startTag), (.end, .endTag):
                if tokens.name(of: token) == name { return token.range.lowerBound }
            default: break
            }
        }
        return nil
    }

    /// The offset of the start of the line after the one holding `offset`.
    static func nextLine(after offset: Int, in bytes: [UInt8]) -> Int {
        var index = offset
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        return min(index + 1, bytes.count)
    }

    /// A path as a designer names it: the theme folder and the file (`Base.theme/Constants.xml`).
    static func display(_ path: String) -> String {
        FileSystem.lastComponent(of: FileSystem.parent(of: path)) + "/" + FileSystem.lastComponent(of: path)
    }
}
