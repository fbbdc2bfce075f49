/// How bad a finding is: errors make `validate` fail and stop `compile`; warnings do not.
public enum Severity: String, Hashable, Sendable, Comparable {
    case error
    case warning

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .error && rhs == .warning
    }
}

/// A stable, machine-readable name for a kind of finding (`reference-unknown`, `value-invalid`...).
/// Codes never change meaning once published: CI scripts and editors match on them.
/// The front ends declare their codes as static members in extensions.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Comparable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One finding about a theme: what is wrong, where, and what to do about it.
/// Libraries return diagnostics; only the command-line tool prints them.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    public var location: SourceLocation?
    /// Further places and context for the same cause (where a mismatched tag opened, the trait
    /// sets and themes a finding applies to), so one cause stays one finding.
    public var notes: [Note]
    /// The edits that fix the finding, where they are certain enough to offer (a did-you-mean):
    /// editors and SARIF consumers can apply them (see `Fix`).
    public var fix: Fix?

    /// A remark attached to a finding, with its own location (swift-format's `Finding.Note`).
    public struct Note: Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var location: SourceLocation?

        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }

        /// `path:line:column: note: message`, the form compilers print under a finding.
        public var description: String {
            (location.map { "\($0): " } ?? "") + "note: " + message
        }
    }

    public init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String, at location: SourceLocation?,
        notes: [Note] = [], fix: Fix? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.notes = notes
        self.fix = fix
    }

    public static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation?,
        notes: [Note] = [], fix: Fix? = nil
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, notes: notes, fix: fix)
    }

    public static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation?,
        notes: [Note] = [], fix: Fix? = nil
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, notes: notes, fix: fix)
    }

    /// The one-line form compilers use: `path:line:column: error: message [code]`.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message) [\(code)]"
    }
}

extension Diagnostic {
    /// The finding alone: what tells two findings of one cause apart from two causes.
    public var withoutNotes: Diagnostic {
        var finding = self
        finding.notes = []
        return finding
    }
}

extension Diagnostic: Comparable {
    /// Orders by place (file, line, column), then severity, code and message, so output is stable.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        switch (lhs.location, rhs.location) {
        case let (l?, r?) where l != r: return l < r
        case (nil, _?): return true
        case (_?, nil): return false
        default: break
        }
        if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
        if lhs.code != rhs.code { return lhs.code < rhs.code }
        return lhs.message < rhs.message
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// One finding per cause: findings equal but for their notes become one, carrying every
    /// distinct note of the group in first-seen order; the result is sorted by place.
    public func mergingNotes() -> [Diagnostic] {
        var order: [Diagnostic] = []
        var index: [Diagnostic: Int] = [:]
        for diagnostic in self {
            let key = diagnostic.withoutNotes
            if let at = index[key] {
                for note in diagnostic.notes where !order[at].notes.contains(note) { order[at].notes.append(note) }
            } else {
                index[key] = order.count
                order.append(diagnostic)
            }
        }
        return order.sorted()
    }
}
