import ArgumentParser
import Foundation
import LiveryCompiler
import LiveryModel
import LiveryTooling
import LiveryXML

/// How a command reports its findings: format, destination, the team's severity configuration
/// and baseline. Shared by validate, compile, build, watch, pack and generate-swift.
package struct ReportOptions: ParsableArguments {
    package init() {}

    @Option(
        help:
            "Diagnostics as text lines, one JSON array or one SARIF log (text on stderr, json and sarif on stdout, or any of them in the --report file)."
    )
    package var format: DiagnosticFormat = .text

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp("Write the diagnostics to FILE (atomically) instead of stderr or stdout.", valueName: "FILE")
    )
    package var reportFile: String?

    @Option(
        help: ArgumentHelp(
            "A severity configuration (default: the first \(DiagnosticPolicy.fileName) in the theme's folder or a folder above it).",
            valueName: "FILE"))
    package var config: String?

    @Option(help: ArgumentHelp("Report only the findings this baseline file does not list.", valueName: "FILE"))
    package var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Write every finding of this run to a baseline file (then exit 0 unless it cannot be written).",
            valueName: "FILE"))
    package var writeBaseline: String?
}

/// Every code livery reports, for checking the codes a configuration names.
package let knownCodes: [DiagnosticCode] =
    DiagnosticCode.frontEndCodes + [
        .compileUnreadable, .compileUnencodable, .compileWriteFailed, .compiledInvalid, .configInvalid,
    ]

/// Applies the report options to one run's findings and prints them as one document.
package struct Reporter {
    package var options: ReportOptions
    /// `--strict`: warnings fail the run too.
    package var strict = false
    /// Overrides `options.reportFile` (validate's `--output`).
    package var file: String?

    package init(options: ReportOptions, strict: Bool = false, file: String? = nil) {
        self.options = options
        self.strict = strict
        self.file = file
    }

    /// The findings as the team configured them; configuration problems are findings too.
    package func configured(_ diagnostics: [Diagnostic], paths: [String]) -> [Diagnostic] {
        var diagnostics = diagnostics
        if let path = options.config ?? paths.lazy.compactMap(DiagnosticPolicy.find(from:)).first {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                return diagnostics + [
                    .error(.configInvalid, "cannot read the severity configuration", at: SourceLocation(file: path))
                ]
            }
            let (policy, problems) = DiagnosticPolicy.parse(text, path: path, knownCodes: knownCodes)
            diagnostics = policy.apply(diagnostics) + problems
        }
        if let baseline = options.baseline {
            do {
                diagnostics = try Baseline(contentsOf: baseline).filter(diagnostics, lines: lines)
            } catch {
                diagnostics.append(.error(.configInvalid, error.description, at: SourceLocation(file: baseline)))
            }
        }
        return diagnostics.mergingNotes()
    }

    private var lines: SourceLines { SourceLines() }

    /// Prints (or writes) the report and says whether the run failed: errors, or with `--strict`
    /// any finding. Writing a baseline is a run of its own: it fails only if the file cannot be written.
    package func finish(_ diagnostics: [Diagnostic]) -> Bool {
        if let path = options.writeBaseline {
            let baseline = Baseline(diagnostics, lines: lines)
            do {
                try write(baseline.rendered(messages: diagnostics.map(\.message)), to: path)
                writeError(
                    "wrote \(diagnostics.count) finding\(diagnostics.count == 1 ? "" : "s") to the baseline \(path)\n")
                return false
            } catch {
                writeError(
                    "\(path): error: cannot write the baseline: \(error.localizedDescription) [config-invalid]\n")
                return true
            }
        }
        let printer = DiagnosticPrinter(format: options.format)
        if let path = file ?? options.reportFile {
            do {
                try write(printer.render(diagnostics), to: path)
            } catch {
                writeError("\(path): error: cannot write the report: \(error.localizedDescription) [config-invalid]\n")
                return true
            }
        } else {
            printer.print(diagnostics)
        }
        return diagnostics.hasErrors || (strict && !diagnostics.isEmpty)
    }

    /// A temporary file beside the target, renamed over it: a reader never sees half a report.
    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// `--strict` (SwiftLint's flag): warnings fail the run with exit 1, as errors do.
package struct StrictOption: ParsableArguments {
    package init() {}

    @Flag(help: "Fail (exit 1) on warnings too.")
    package var strict = false
}
