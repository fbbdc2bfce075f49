import Foundation
import LiveryModel
import LiveryTooling

/// Renders diagnostics: one `path:line:col: severity: message [code]` line each, followed by its
/// notes (`path:line:col: note: ...`), with colour only on a terminal; or one JSON array or one
/// SARIF log for machines. Text goes to stderr; a machine document goes to stdout, so that it can be
/// piped (`livery validate Themes --format json | jq .`); either can be written to a file instead.
package struct DiagnosticPrinter {
    package var format: DiagnosticFormat = .text

    package init(format: DiagnosticFormat = .text) {
        self.format = format
    }

    package func print(_ diagnostics: [Diagnostic]) {
        switch format {
        case .text:
            let colour = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            writeError(render(diagnostics, colour: colour))
        case .json, .sarif:
            writeOutput(render(diagnostics))
        }
    }

    /// A line for people (a summary, "wrote ..."): on stdout with text diagnostics, on stderr when
    /// stdout carries the machine document, so that stdout stays exactly one JSON document.
    package func say(_ line: String) {
        if format == .text { writeOutput(line + "\n") } else { writeError(line + "\n") }
    }

    /// The report as one document (json, sarif) or as lines (text); "" for no findings in text.
    package func render(_ diagnostics: [Diagnostic], colour: Bool = false) -> String {
        switch format {
        case .text:
            return diagnostics.map { lines($0, colour: colour) }.joined()
        case .json:
            return Self.json(diagnostics).rendered() + "\n"
        case .sarif:
            return SARIF.log(diagnostics, toolVersion: LiveryVersion.tool).rendered() + "\n"
        }
    }

    package func lines(_ diagnostic: Diagnostic, colour: Bool) -> String {
        var text = line(diagnostic, colour: colour) + "\n"
        for note in diagnostic.notes {
            text +=
                (note.location.map { "\($0): " } ?? "    ") + (colour ? "\u{1B}[1;36mnote:\u{1B}[0m " : "note: ")
                + note.message + "\n"
        }
        return text
    }

    package func line(_ diagnostic: Diagnostic, colour: Bool) -> String {
        guard colour else { return diagnostic.description }
        let paint = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
        let place = diagnostic.location.map { "\u{1B}[1m\($0):\u{1B}[0m " } ?? ""
        return "\(place)\(paint)\(diagnostic.severity.rawValue):\u{1B}[0m \(diagnostic.message) [\(diagnostic.code)]"
    }

    package static func json(_ diagnostics: [Diagnostic]) -> JSONValue {
        func place(_ location: SourceLocation?) -> [(String, JSONValue)] {
            [
                ("file", location.map { .string($0.file) } ?? .null),
                ("line", location?.line.map { .integer(Int64($0)) } ?? .null),
                ("column", location?.column.map { .integer(Int64($0)) } ?? .null),
            ]
        }
        return .array(
            diagnostics.map { diagnostic in
                var members =
                    place(diagnostic.location) + [
                        ("severity", .string(diagnostic.severity.rawValue)),
                        ("code", .string(diagnostic.code.rawValue)),
                        ("message", .string(diagnostic.message)),
                    ]
                if !diagnostic.notes.isEmpty {
                    members.append(
                        (
                            "notes",
                            .array(
                                diagnostic.notes.map { note in
                                    .object(place(note.location) + [("message", .string(note.message))])
                                })
                        ))
                }
                // every edit with its own place: a fix may change several places and files
                if let fix = diagnostic.fix, let placed = fix.placed(at: diagnostic.location) {
                    let edits = placed.map { location, edit in
                        JSONValue.object(
                            place(location) + [
                                ("replace", .string(edit.replaced)), ("with", .string(edit.replacement)),
                            ])
                    }
                    members.append(("fix", .object([("title", .string(fix.title)), ("edits", .array(edits))])))
                }
                return .object(members)
            })
    }
}

package func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

package func writeOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}
