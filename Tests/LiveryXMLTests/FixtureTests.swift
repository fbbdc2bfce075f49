import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// One folder of `Tests/Fixtures/Invalid/<code>/` or `Tests/Fixtures/Warnings/<code>/`: a folder of
/// small themes crafted to trigger the diagnostic code it is named after.
///
/// `expected.txt` lists the diagnostic lines that must appear, exactly as `cd FOLDER && livery
/// validate .` prints them (`path:line:col: severity: message [code]`, paths relative to the
/// folder). Lines starting with `#` are comments, except these directives:
/// - `# validate: PATH...` validates those paths (relative to the folder) instead of the folder
///   itself, for codes about the paths given (path-not-found).
/// - `# limits: NAME=N...` sets `FrontEndLimits` fields (maxFileBytes, maxFilesPerTheme,
///   maxAssetsPerTheme), for the codes of oversized input; the CLI has no option for these.
/// - `# known-issue: REASON` marks the next line as what the front end should print but does not
///   yet: that line, and the actual diagnostic with the same severity, message and code, are
///   checked inside `withKnownIssue`, so the test fails once the front end is fixed and the marker
///   should go.
struct Fixture: Sendable, CustomTestStringConvertible {
    enum Kind: String, Sendable {
        case invalid = "Invalid"
        case warnings = "Warnings"
    }

    var kind: Kind
    /// The folder's name: the diagnostic code it demonstrates.
    var code: String
    /// Absolute path of the folder, without a trailing slash.
    var path: String

    var testDescription: String { "\(kind.rawValue)/\(code)" }

    /// `Tests/Fixtures`, found from this file's path.
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").standardizedFileURL.path

    /// The package root, for reading the declarations of the codes.
    static let packageRoot: String = URL(fileURLWithPath: root).deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func all(_ kind: Kind) -> [Fixture] {
        let folder = root + "/" + kind.rawValue
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            let path = folder + "/" + name
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                return nil
            }
            return Fixture(kind: kind, code: name, path: path)
        }
    }

    static let invalid = all(.invalid)
    static let warnings = all(.warnings)

    // MARK: - expected.txt

    struct ExpectedLine {
        var text: String
        /// Set when the line is what should be printed but is not yet (`# known-issue:`).
        var knownIssue: String?
    }

    struct Expectations {
        var lines: [ExpectedLine] = []
        var paths: [String]?
        var limits = FrontEndLimits()
    }

    func expectations() throws -> Expectations {
        let text = try String(contentsOfFile: path + "/expected.txt", encoding: .utf8)
        var result = Expectations()
        var pendingIssue: String?
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard line.hasPrefix("#") else {
                result.lines.append(ExpectedLine(text: line, knownIssue: pendingIssue))
                pendingIssue = nil
                continue
            }
            let comment = line.dropFirst().trimmingCharacters(in: .whitespaces)
            if let value = Self.directive("validate", in: comment) {
                result.paths = value.split(separator: " ").map { path + "/" + $0 }
            } else if let value = Self.directive("limits", in: comment) {
                for setting in value.split(separator: " ") {
                    let parts = setting.split(separator: "=")
                    guard parts.count == 2, let number = Int(parts[1]) else {
                        throw FixtureError.badDirective(line)
                    }
                    switch parts[0] {
                    case "maxFileBytes": result.limits.maxFileBytes = number
                    case "maxFilesPerTheme": result.limits.maxFilesPerTheme = number
                    case "maxAssetsPerTheme": result.limits.maxAssetsPerTheme = number
                    default: throw FixtureError.badDirective(line)
                    }
                }
            } else if let value = Self.directive("known-issue", in: comment) {
                pendingIssue = value
            }
        }
        return result
    }

    private static func directive(_ name: String, in comment: String) -> String? {
        guard comment.hasPrefix(name + ":") else { return nil }
        return comment.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
    }

    enum FixtureError: Error { case badDirective(String) }

    // MARK: - Running

    /// Validates the fixture as `cd FOLDER && livery validate .` would.
    func run(_ expectations: Expectations) -> [Diagnostic] {
        // chdir is process-wide and these tests run in parallel, so the folder is passed as an
        // absolute path and taken out of the output again (`relative`).
        ThemeWorkspace(limits: expectations.limits).validate(paths: expectations.paths ?? [path])
    }

    /// `text` as if the folder were the working directory: `FOLDER/X` becomes `X` (what
    /// `FileSystem.join(".", X)` gives), and the folder itself `.` (so `FOLDER/` in a list of
    /// folders becomes `./`).
    func relative(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: path) {
            result += rest[..<range.lowerBound]
            rest = rest[range.upperBound...]
            if rest.first == "/", let next = rest.dropFirst().first, !" ,;)'".contains(next) {
                rest = rest.dropFirst()
            } else {
                result += "."
            }
        }
        return result + rest
    }
}

/// `severity: message [code]`: a printed diagnostic without its location.
private func withoutLocation(_ line: String) -> Substring {
    for marker in [": error: ", ": warning: "] {
        if let range = line.range(of: marker) { return line[line.index(range.lowerBound, offsetBy: 2)...] }
    }
    return line.hasPrefix("error: ") || line.hasPrefix("warning: ") ? line[...] : ""
}

@Suite struct FixtureTests {
    /// Codes about files and folders as a whole: their diagnostics carry a path but no line.
    /// Every other code is about something inside a file and must say on which line.
    static let fileLevelCodes: Set<String> = [
        "path-not-found", "no-themes", "file-unreadable", "file-ignored", "file-link", "info-missing",
        "qualifier-unknown", "qualifier-conflict", "asset-ambiguous", "asset-unused",
    ]

    /// Declared codes without a fixture, each with the reason no fixture can trigger it.
    /// Codes no fixture can trigger (none at present; keep the reason next to any entry added).
    static let untriggerable: [String: String] = [:]

    @Test(arguments: Fixture.invalid)
    func invalidFixture(_ fixture: Fixture) throws {
        let diagnostics = try check(fixture)
        #expect(
            diagnostics.contains { $0.severity == .error && $0.code.rawValue == fixture.code },
            "no error [\(fixture.code)] in: \(diagnostics.map { fixture.relative($0.description) })")
    }

    @Test(arguments: Fixture.warnings)
    func warningFixture(_ fixture: Fixture) throws {
        let diagnostics = try check(fixture)
        #expect(
            !diagnostics.hasErrors,
            "errors in a warnings fixture: \(diagnostics.map { fixture.relative($0.description) })")
        #expect(
            diagnostics.contains { $0.severity == .warning && $0.code.rawValue == fixture.code },
            "no warning [\(fixture.code)] in: \(diagnostics.map { fixture.relative($0.description) })")
    }

    /// The checks common to every fixture; returns the diagnostics for the kind-specific ones.
    private func check(_ fixture: Fixture) throws -> [Diagnostic] {
        let expectations = try fixture.expectations()
        #expect(!expectations.lines.isEmpty, "\(fixture.testDescription)/expected.txt lists no diagnostic")
        let diagnostics = fixture.run(expectations)
        let rendered = diagnostics.map { fixture.relative($0.description) }
        let known = expectations.lines.filter { $0.knownIssue != nil }
        func knownIssue(for line: String) -> String? {
            known.first { withoutLocation($0.text) == withoutLocation(line) }?.knownIssue
        }

        // Every expected line is printed, exactly.
        for line in expectations.lines {
            if let reason = line.knownIssue {
                withKnownIssue(Comment(rawValue: reason)) {
                    #expect(rendered.contains(line.text), "missing: \(line.text)")
                }
            } else {
                #expect(
                    rendered.contains(line.text), "missing: \(line.text)\nprinted:\n\(rendered.joined(separator: "\n"))"
                )
            }
        }

        // No error the fixture did not ask for: a fixture shows one code, not a cascade.
        let expectedTexts = Set(expectations.lines.map(\.text))
        for (diagnostic, line) in zip(diagnostics, rendered) where diagnostic.severity == .error {
            if expectedTexts.contains(line) { continue }
            if knownIssue(for: line) != nil { continue }
            Issue.record("unexpected error in \(fixture.testDescription): \(line)")
        }

        // Findings inside a file say where in it.
        for (diagnostic, line) in zip(diagnostics, rendered)
        where !Self.fileLevelCodes.contains(diagnostic.code.rawValue) {
            if let reason = knownIssue(for: line) {
                withKnownIssue(Comment(rawValue: reason)) {
                    #expect(diagnostic.location?.line != nil, "no line number: \(line)")
                }
            } else {
                #expect(diagnostic.location?.line != nil, "no line number: \(line)")
            }
        }
        return diagnostics
    }

    /// The codes as declared: every `"code-name"` literal in DiagnosticCodes.swift.
    static func declaredCodes() throws -> [String] {
        let path = Fixture.packageRoot + "/Sources/LiveryXML/API/DiagnosticCodes.swift"
        let source = try String(contentsOfFile: path, encoding: .utf8)
        var codes: [String] = []
        for line in source.split(separator: "\n") where line.contains(": DiagnosticCode = \"") {
            let parts = line.split(separator: "\"")
            if parts.count >= 2 { codes.append(String(parts[1])) }
        }
        return codes
    }

    @Test func everyDeclaredCodeHasAFixture() throws {
        let declared = try Self.declaredCodes()
        #expect(declared.count > 50, "could not read the codes from DiagnosticCodes.swift")
        #expect(Set(declared).count == declared.count, "a code is declared twice")
        let fixtures = Set((Fixture.invalid + Fixture.warnings).map(\.code))
        for code in declared where !fixtures.contains(code) && Self.untriggerable[code] == nil {
            Issue.record(
                "no fixture for [\(code)]: add Tests/Fixtures/Invalid/\(code) or Tests/Fixtures/Warnings/\(code)")
        }
        for code in fixtures where !declared.contains(code) {
            Issue.record("fixture folder '\(code)' is not a declared code")
        }
        for code in Self.untriggerable.keys {
            #expect(declared.contains(code), "untriggerable '\(code)' is no longer declared; drop it from the list")
            #expect(!fixtures.contains(code), "'\(code)' has a fixture now; drop it from the untriggerable list")
        }
    }

    @Test func everyFixtureFolderHoldsExpectations() {
        for fixture in Fixture.invalid + Fixture.warnings {
            #expect(
                FileManager.default.fileExists(atPath: fixture.path + "/expected.txt"),
                "\(fixture.testDescription) has no expected.txt")
        }
    }
}
