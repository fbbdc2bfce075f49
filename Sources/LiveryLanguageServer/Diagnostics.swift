import Foundation
import LiveryModel
import LiveryXML

extension LanguageServer {
    /// Publishes the findings of every theme (what `validate` reports) by file: each file of the
    /// themes checked again, and every other file whose list changed (a parent's file, an
    /// `Info.xml`, a schema file, where a child's finding stands or stood). An empty list clears
    /// a file's earlier ones.
    func publish(_ found: [Diagnostic], checkedFiles: [String]) {
        var byFile: [String: [Diagnostic]] = [:]
        for finding in found {
            guard let file = finding.location?.file else { continue }
            byFile[LanguageServer.standardized(file), default: []].append(finding)
        }
        let checked = Set(checkedFiles)
        for file in checked.union(byFile.keys).union(published).sorted() {
            let diagnostics = byFile[file] ?? []
            let changed = diagnostics != (findings[file] ?? [])
            // A checked file's non-empty list goes out again: its buffer's version moved on.
            guard changed || (!diagnostics.isEmpty && checked.contains(file)) else {
                if diagnostics.isEmpty { findings[file] = nil }
                continue
            }
            findings[file] = diagnostics.isEmpty ? nil : diagnostics
            if diagnostics.isEmpty { published.remove(file) } else { published.insert(file) }
            let document = self.document(at: file)
            let uri = uri(of: file)
            let version = documents[uri]?.version
            notify(
                "textDocument/publishDiagnostics",
                .members([
                    ("uri", .string(uri)),
                    ("version", version.map(JSONValue.int)),
                    ("diagnostics", .array(diagnostics.map { json($0, in: document) })),
                ]))
        }
    }

    static func standardizedLocation(_ location: SourceLocation) -> SourceLocation {
        var standardized = location
        standardized.file = LanguageServer.standardized(location.file)
        return standardized
    }

    func json(_ finding: Diagnostic, in document: TextDocument?) -> JSONValue {
        let range =
            document.flatMap { self.range(of: finding, in: $0) }
            ?? TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
        var related: [JSONValue] = []
        var unlocated: [String] = []
        for note in finding.notes {
            if let location = note.location.map(Self.standardizedLocation), let json = self.location(location) {
                related.append(.object([("location", json), ("message", .string(note.message))]))
            } else {
                unlocated.append("note: " + note.message)
            }
        }
        let message = ([finding.message] + unlocated).joined(separator: "\n")
        return .members([
            ("range", Self.json(range)),
            ("severity", .int(finding.severity == .error ? 1 : 2)),
            ("code", .string(finding.code.rawValue)),
            ("source", .string("livery")),
            ("message", .string(message)),
            ("relatedInformation", related.isEmpty ? nil : .array(related)),
        ])
    }

    /// Where a finding stands in its file: the text its fix replaces there, else the word at its
    /// column.
    func range(of finding: Diagnostic, in document: TextDocument) -> TextRange? {
        guard let location = finding.location else { return nil }
        guard let line = location.line else {
            return TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
        }
        if let edit = finding.fix?.edits.first(where: { $0.location == nil }),
            let range = Self.editRange(edit, from: location, in: document)
        {
            return range
        }
        return Self.wordRange(in: document, line: line, column: location.column)
    }

    /// The range a fix's edit replaces, searched from `place` as `Diagnostic.Fix.Edit.span` does
    /// (in characters), in LSP positions; nil when its text is not there.
    static func editRange(_ edit: Diagnostic.Fix.Edit, from place: SourceLocation, in document: TextDocument)
        -> TextRange?
    {
        let span = edit.span(from: place) { number in
            number >= 1 && number <= document.lineCount ? Substring(document.lineText(number - 1)) : nil
        }
        guard let span else { return nil }
        func position(_ point: TextSpan.Point) -> Position {
            let units = document.lineText(point.line - 1).prefix(point.column - 1).reduce(0) { $0 + $1.utf16.count }
            return Position(line: point.line - 1, character: units)
        }
        return TextRange(start: position(span.start), end: position(span.end))
    }

    /// `textDocument/codeAction`: a quick fix for each finding in the range that carries a fix,
    /// applying exactly its edits, in every document they touch (a definition moved from one
    /// file into another is one action editing both). A fix whose edit no longer finds its text
    /// is not offered: half of a fix would leave the theme broken.
    func codeActions(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (uri, path, document) = try openDocument(params)
        guard let range = params["range"].flatMap(Self.range) else { throw .invalidParams("range is missing") }
        var actions: [JSONValue] = []
        for finding in findings[path] ?? [] {
            guard let fix = finding.fix, let location = finding.location,
                let at = self.range(of: finding, in: document), at.start <= range.end, range.start <= at.end,
                let placed = fix.placed(at: location)
            else { continue }
            var edits: [String: [JSONValue]] = [:]
            var whole = true
            for (place, edit) in placed {
                let file = LanguageServer.standardized(place.file)
                guard let placeDocument = file == path ? document : self.document(at: file),
                    let placeRange = Self.editRange(edit, from: place, in: placeDocument)
                else {
                    whole = false
                    break
                }
                edits[file == path ? uri : self.uri(of: file), default: []].append(
                    .object([("range", Self.json(placeRange)), ("newText", .string(edit.replacement))]))
            }
            guard whole else { continue }
            actions.append(
                .object([
                    ("title", .string(fix.title)),
                    ("kind", .string("quickfix")),
                    ("diagnostics", .array([json(finding, in: document)])),
                    ("isPreferred", .bool(true)),
                    (
                        "edit",
                        .object([
                            ("changes", .object(edits.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value)) }))
                        ])
                    ),
                ]))
        }
        return .array(actions)
    }
}
