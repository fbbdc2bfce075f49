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

    /// Where a finding stands in its file: the text its fix replaces, else the word at its column.
    func range(of finding: Diagnostic, in document: TextDocument) -> TextRange? {
        guard let location = finding.location else { return nil }
        guard let line = location.line else {
            return TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
        }
        if let fix = finding.fix, let range = Self.fixRange(fix, line: line, column: location.column, in: document) {
            return range
        }
        return Self.wordRange(in: document, line: line, column: location.column)
    }

    /// The range `fix.replaced` occupies on a 1-based line, searched from a column, as
    /// `Diagnostic.Fix.range(inLine:from:)` finds it (in characters), in LSP positions.
    static func fixRange(_ fix: Diagnostic.Fix, line: Int, column: Int?, in document: TextDocument) -> TextRange? {
        guard line >= 1, line <= document.lineCount else { return nil }
        let text = document.lineText(line - 1)
        guard let characters = fix.range(inLine: text, from: column) else { return nil }
        let all = Array(text)
        let start = all[..<characters.lowerBound].reduce(0) { $0 + $1.utf16.count }
        let length = all[characters].reduce(0) { $0 + $1.utf16.count }
        return TextRange(
            start: Position(line: line - 1, character: start), end: Position(line: line - 1, character: start + length))
    }

    /// `textDocument/codeAction`: a quick fix for each finding in the range that carries a fix,
    /// applying exactly its edit (at its location and at every `elsewhere` place).
    func codeActions(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (uri, path, document) = try openDocument(params)
        guard let range = params["range"].flatMap(Self.range) else { throw .invalidParams("range is missing") }
        var actions: [JSONValue] = []
        for finding in findings[path] ?? [] {
            guard let fix = finding.fix, let location = finding.location, let line = location.line,
                let at = Self.fixRange(fix, line: line, column: location.column, in: document),
                at.start <= range.end, range.start <= at.end
            else { continue }
            var edits: [String: [JSONValue]] = [:]
            var whole = true
            for place in [location] + fix.elsewhere {
                let placeDocument = place.file == location.file ? document : self.document(at: place.file)
                guard let placeDocument, let placeLine = place.line,
                    let placeRange = Self.fixRange(fix, line: placeLine, column: place.column, in: placeDocument)
                else {
                    whole = false
                    break
                }
                let placeURI = place.file == location.file ? uri : self.uri(of: LanguageServer.standardized(place.file))
                edits[placeURI, default: []].append(
                    .object([("range", Self.json(placeRange)), ("newText", .string(fix.replacement))]))
            }
            guard whole else { continue }
            actions.append(
                .object([
                    ("title", .string("Replace '\(fix.replaced)' with '\(fix.replacement)'")),
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
