import Foundation

/// A one-line progress indicator for long runs on a terminal (`[3/12] validating Dark.theme`),
/// redrawn in place and erased when done. Off when the stream is not a terminal, so logs and
/// CI output never contain it.
public final class ProgressLine {
    public let enabled: Bool
    private let write: (String) -> Void
    private var shown = false

    /// - Parameters:
    ///   - enabled: usually `ProgressLine.isTerminal(STDERR_FILENO)`.
    ///   - write: where the text goes (stderr, or a buffer in tests).
    public init(enabled: Bool, write: @escaping (String) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    /// On when stderr is a terminal and `LIVERY_NO_PROGRESS` is not set.
    public static func forStandardError() -> ProgressLine {
        let enabled = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["LIVERY_NO_PROGRESS"] == nil
        return ProgressLine(enabled: enabled) { FileHandle.standardError.write(Data($0.utf8)) }
    }

    public func update(_ done: Int, of total: Int, _ label: String) {
        guard enabled else { return }
        let width = 24
        let filled = total > 0 ? width * done / total : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        write("\r\u{1B}[K[\(bar)] \(done)/\(total) \(label)")
        shown = true
    }

    /// Erases the line, so what is printed next starts on a clean line.
    public func finish() {
        guard enabled, shown else { return }
        write("\r\u{1B}[K")
        shown = false
    }
}
