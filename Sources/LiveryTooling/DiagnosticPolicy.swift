import Foundation
import LiveryModel
import LiveryXML

/// A team's choice of which findings matter, checked in beside the themes as
/// `.livery-diagnostics` (docs/Diagnostics.md, "Severity configuration"):
///
///     # comments start with '#'
///     constant-unused: off          # never report
///     attribute-unknown: error      # a typo that drops a class fails CI
///     asset-unused: warning
///
/// One `code: off|warning|error` per line. A code turned `off` is not reported; the others are
/// reported with the severity given.
public struct DiagnosticPolicy: Equatable, Sendable {
    public static let fileName = ".livery-diagnostics"

    public enum Setting: String, Sendable, CaseIterable {
        case off, warning, error
    }

    public var settings: [DiagnosticCode: Setting] = [:]
    /// Where the policy was read from, for messages.
    public var path: String?

    public init(settings: [DiagnosticCode: Setting] = [:], path: String? = nil) {
        self.settings = settings
        self.path = path
    }

    /// Reads a policy file; problems in it are located `config-invalid` errors (an unknown code
    /// is a warning with a did-you-mean, so a policy written for a newer livery still works).
    public static func parse(_ text: String, path: String, knownCodes: [DiagnosticCode]) -> (
        DiagnosticPolicy, [Diagnostic]
    ) {
        var policy = DiagnosticPolicy(path: path)
        var diagnostics: [Diagnostic] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.prefix { $0 != "#" }.trimmingWhitespace()
            guard !line.isEmpty else { continue }
            let location = SourceLocation(
                file: path, line: index + 1, column: raw.distance(from: raw.startIndex, to: line.startIndex) + 1)
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard parts.count == 2, !parts[0].isEmpty, let setting = Setting(rawValue: String(parts[1])) else {
                diagnostics.append(
                    .error(
                        .configInvalid,
                        "'\(line)' is not a setting; write 'code: off', 'code: warning' or 'code: error', e.g. constant-unused: off",
                        at: location))
                continue
            }
            let code = DiagnosticCode(rawValue: String(parts[0]))
            if !knownCodes.contains(code) {
                let (hint, fix) = Suggestions.suggest(code.rawValue, in: knownCodes.map(\.rawValue))
                diagnostics.append(
                    .warning(
                        .configInvalid,
                        "unknown code '\(code)'\(hint.isEmpty ? "; docs/Diagnostics.md lists the codes" : hint)",
                        at: location, fix: fix))
            }
            policy.settings[code] = setting
        }
        return (policy, diagnostics)
    }

    /// The policy file that applies to a path: the first `.livery-diagnostics` in the path itself
    /// (when it is a folder) or a folder above it.
    public static func find(from path: String) -> String? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) || !isFolder.boolValue {
            url.deleteLastPathComponent()
        }
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// The findings with the policy applied: codes turned off removed, severities changed.
    public func apply(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.compactMap { diagnostic in
            switch settings[diagnostic.code] {
            case nil: return diagnostic
            case .off: return nil
            case .warning?:
                var changed = diagnostic
                changed.severity = .warning
                return changed
            case .error?:
                var changed = diagnostic
                changed.severity = .error
                return changed
            }
        }
    }
}

extension DiagnosticCode {
    /// A problem in a `.livery-diagnostics` policy file or a baseline file.
    public static let configInvalid: DiagnosticCode = "config-invalid"
}
