import Foundation
import LiveryModel

/// Findings a team has accepted for now, so CI can adopt new checks on existing themes without
/// fixing everything first: `--write-baseline FILE` records today's findings, `--baseline FILE`
/// reports only the ones not recorded. Findings match by code, file and `Fingerprint` (not line),
/// each recorded entry absorbing one finding, so a second copy of an old mistake is still new.
public struct Baseline: Equatable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var code: String
        public var file: String
        public var fingerprint: String
    }

    public var entries: [Entry]

    public init(_ diagnostics: [Diagnostic], lines: SourceLines) {
        entries = diagnostics.map { Self.entry(for: $0, lines: lines) }
    }

    static func entry(for diagnostic: Diagnostic, lines: SourceLines) -> Entry {
        Entry(
            code: diagnostic.code.rawValue, file: diagnostic.location?.file ?? "",
            fingerprint: Fingerprint.of(diagnostic, lines: lines))
    }

    /// The findings the baseline does not cover.
    public func filter(_ diagnostics: [Diagnostic], lines: SourceLines) -> [Diagnostic] {
        var remaining: [Entry: Int] = [:]
        for entry in entries { remaining[entry, default: 0] += 1 }
        return diagnostics.filter { diagnostic in
            let entry = Self.entry(for: diagnostic, lines: lines)
            guard let count = remaining[entry], count > 0 else { return true }
            remaining[entry] = count - 1
            return false
        }
    }

    /// The file: a JSON object `{"version": 1, "findings": [{"code", "file", "fingerprint", "message"}]}`,
    /// one finding per line so a diff of the baseline reads well in review.
    public func rendered(messages: [String]) -> String {
        var lines: [String] = []
        for (index, entry) in entries.enumerated() {
            let object = JSONValue.object([
                ("code", .string(entry.code)), ("file", .string(entry.file)),
                ("fingerprint", .string(entry.fingerprint)),
                ("message", .string(index < messages.count ? messages[index] : "")),
            ])
            lines.append("    " + object.rendered(pretty: false))
        }
        return "{\n  \"version\": 1,\n  \"findings\": [\n" + lines.joined(separator: ",\n")
            + (lines.isEmpty ? "" : "\n") + "  ]\n}\n"
    }

    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case malformed(String)

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot read the baseline: \(reason)"
            case .malformed(let reason): "not a Livery baseline: \(reason); write one with --write-baseline FILE"
            }
        }
    }

    public init(contentsOf path: String) throws(ReadError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable("no such file") }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .malformed("the file is not a JSON object")
        }
        guard object["version"] as? Int == 1 else { throw .malformed("\"version\" is not 1") }
        guard let findings = object["findings"] as? [[String: Any]] else {
            throw .malformed("\"findings\" is not an array of objects")
        }
        var entries: [Entry] = []
        for (index, finding) in findings.enumerated() {
            guard let code = finding["code"] as? String, let file = finding["file"] as? String,
                let fingerprint = finding["fingerprint"] as? String
            else {
                throw .malformed("finding \(index + 1) lacks \"code\", \"file\" or \"fingerprint\"")
            }
            entries.append(Entry(code: code, file: file, fingerprint: fingerprint))
        }
        self.entries = entries
    }
}
