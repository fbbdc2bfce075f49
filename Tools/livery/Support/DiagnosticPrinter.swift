import Foundation
import LiveryModel
import LiveryTooling

/// Prints diagnostics to stderr: one `path:line:col: severity: message [code]` line each, with
/// colour only on a terminal, or a JSON array or a SARIF log for machines.
struct DiagnosticPrinter {
    var format: DiagnosticFormat = .text

    func print(_ diagnostics: [Diagnostic]) {
        switch format {
        case .text:
            let colour = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            for diagnostic in diagnostics { writeError(line(diagnostic, colour: colour) + "\n") }
        case .json:
            writeError(Self.json(diagnostics).rendered() + "\n")
        case .sarif:
            writeError(SARIF.log(diagnostics).rendered() + "\n")
        }
    }

    func line(_ diagnostic: Diagnostic, colour: Bool) -> String {
        guard colour else { return diagnostic.description }
        let paint = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
        let place = diagnostic.location.map { "\u{1B}[1m\($0):\u{1B}[0m " } ?? ""
        return "\(place)\(paint)\(diagnostic.severity.rawValue):\u{1B}[0m \(diagnostic.message) [\(diagnostic.code)]"
    }

    static func json(_ diagnostics: [Diagnostic]) -> JSONValue {
        .array(diagnostics.map { diagnostic in
            .object([
                ("file", diagnostic.location.map { .string($0.file) } ?? .null),
                ("line", diagnostic.location?.line.map { .integer(Int64($0)) } ?? .null),
                ("column", diagnostic.location?.column.map { .integer(Int64($0)) } ?? .null),
                ("severity", .string(diagnostic.severity.rawValue)),
                ("code", .string(diagnostic.code.rawValue)),
                ("message", .string(diagnostic.message)),
            ])
        })
    }
}

func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
