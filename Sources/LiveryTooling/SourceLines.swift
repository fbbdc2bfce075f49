import Foundation

/// The lines of the files findings point at, read once each: fingerprints hash a finding's line
/// text (so they survive lines moving), and SARIF fixes locate the text they replace.
public final class SourceLines {
    private var files: [String: [Substring]?] = [:]
    private let read: (String) -> String?

    /// `read` gives a file's text by the path a finding names (default: from disk, relative to
    /// the current folder).
    public init(read: @escaping (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }) {
        self.read = read
    }

    /// The text of a 1-based line, without its line break; nil when unknown.
    public func line(_ number: Int, of file: String) -> Substring? {
        if files[file] == nil {
            files[file] = .some(read(file).map { $0.split(separator: "\n", omittingEmptySubsequences: false) })
        }
        guard let lines = files[file] ?? nil, number >= 1, number <= lines.count else { return nil }
        let line = lines[number - 1]
        return line.hasSuffix("\r") ? line.dropLast() : line
    }
}
