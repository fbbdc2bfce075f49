import Foundation
import LiveryModel
import LiveryTooling

/// Renders diagnostics: one `path:line:col: severity: message [code]` line each, followed by its
/// notes (`path:line:col: note: ...`), with colour only on a terminal; or one JSON array or one
/// SARIF log for machines. Prints to stderr, or writes the whole report to a file.
struct DiagnosticPrinter {
    var format: DiagnosticFormat = .text

    func print(_ diagnostics: [Diagnostic]) {
        let colour = format == .text && isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        writeError(render(diagnostics, colour: colour))
    }

    /// The report as one document (json, sarif) or as lines (text); "" for no findings in text.
    func render(_ diagnostics: [Diagnostic], colour: Bool = false) -> String {
        switch format {
        case .text:
            return diagnostics.map { lines($0, colour: colour) }.joined()
        case .json:
            return Self.json(diagnostics).rendered() + "\n"
        case .sarif:
            return SARIF.log(diagnostics, toolVersion: Livery.version).rendered() + "\n"
        }
    }

    func lines(_ diagnostic: Diagnostic, colour: Bool) -> String {
        var text = line(diagnostic, colour: colour) + "\n"
        for note in diagnostic.notes {
            text += (note.location.map { "\($0): " } ?? "    ") + (colour ? "\u{1B}[1;36mnote:\u{1B}[0m " : "note: ") + note.message + "\n"
        }
        return text
    }

    func line(_ diagnostic: Diagnostic, colour: Bool) -> String {
        guard colour else { return diagnostic.description }
        let paint = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
        let place = diagnostic.location.map { "\u{1B}[1m\($0):\u{1B}[0m " } ?? ""
        return "\(place)\(paint)\(diagnostic.severity.rawValue):\u{1B}[0m \(diagnostic.message) [\(diagnostic.code)]"
    }

    static func json(_ diagnostics: [Diagnostic]) -> JSONValue {
        func place(_ location: SourceLocation?) -> [(String, JSONValue)] {
            [
                ("file", location.map { .string($0.file) } ?? .null),
                ("line", location?.line.map { .integer(Int64($0)) } ?? .null),
                ("column", location?.column.map { .integer(Int64($0)) } ?? .null),
            ]
        }
        return .array(diagnostics.map { diagnostic in
            var members = place(diagnostic.location) + [
                ("severity", .string(diagnostic.severity.rawValue)),
                ("code", .string(diagnostic.code.rawValue)),
                ("message", .string(diagnostic.message)),
            ]
            if !diagnostic.notes.isEmpty {
                members.append(("notes", .array(diagnostic.notes.map { note in
                    .object(place(note.location) + [("message", .string(note.message))])
                })))
            }
            if let fix = diagnostic.fix {
                var change: [(String, JSONValue)] = [("replace", .string(fix.replaced)), ("with", .string(fix.replacement))]
                // further places that take the same replacement (an element's end tag)
                if !fix.elsewhere.isEmpty { change.append(("alsoAt", .array(fix.elsewhere.map { .object(place($0)) }))) }
                members.append(("fix", .object(change)))
            }
            return .object(members)
        })
    }
}

func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
