import Foundation
import LiveryModel

/// Diagnostics as a SARIF 2.1.0 log, the format CI systems (GitHub code scanning, GitLab, Azure
/// DevOps) read to annotate the lines of theme files in a pull request. One log per run; a test
/// validates it against the official schema (Tests/Fixtures/SARIF/sarif-schema-2.1.0.json).
public enum SARIF {
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The page every rule's `helpUri` points into (an anchor per code). Override with the
    /// environment variable `LIVERY_DOCS_URL` where the docs live elsewhere (a fork, a mirror).
    public static let documentationURL = "https://github.com/livery-themes/livery/blob/main/docs/Diagnostics.md"
    /// The name of the partial fingerprint results carry (see `Fingerprint`).
    public static let fingerprintName = "liveryFinding/v1"

    /// - Parameters:
    ///   - root: the folder relative paths are relative to (`%SRCROOT%`), as an absolute path;
    ///     the current folder by default.
    ///   - descriptions: a sentence per code for the rules' `fullDescription`.
    public static func log(
        _ diagnostics: [Diagnostic], toolVersion: String, root: String = FileManager.default.currentDirectoryPath,
        descriptions: [DiagnosticCode: String] = RuleDescriptions.all, lines: SourceLines = SourceLines(),
        documentationURL: String = ProcessInfo.processInfo.environment["LIVERY_DOCS_URL"] ?? documentationURL
    ) -> JSONValue {
        let codes = Array(Set(diagnostics.map(\.code))).sorted()
        let rules = codes.map { code in
            JSONValue.object([
                ("id", .string(code.rawValue)),
                ("shortDescription", .object([("text", .string("Livery \(code.rawValue)"))])),
                (
                    "fullDescription",
                    .object([("text", .string(descriptions[code] ?? "See docs/Diagnostics.md, \(code.rawValue)."))])
                ),
                ("helpUri", .string(documentationURL + "#" + code.rawValue)),
            ])
        }
        let results = diagnostics.map { diagnostic -> JSONValue in
            var text = diagnostic.message
            for note in diagnostic.notes where note.location == nil { text += " (note: \(note.message))" }
            var members: [(String, JSONValue)] = [
                ("ruleId", .string(diagnostic.code.rawValue)),
                ("ruleIndex", .integer(Int64(codes.firstIndex(of: diagnostic.code) ?? 0))),
                ("level", .string(diagnostic.severity == .error ? "error" : "warning")),
                ("message", .object([("text", .string(text))])),
            ]
            if let location = diagnostic.location {
                members.append(("locations", .array([.object([("physicalLocation", physical(location))])])))
            }
            let related = diagnostic.notes.compactMap { note in note.location.map { (note.message, $0) } }
            if !related.isEmpty {
                members.append(
                    (
                        "relatedLocations",
                        .array(
                            related.enumerated().map { index, item in
                                .object([
                                    ("id", .integer(Int64(index))), ("physicalLocation", physical(item.1)),
                                    ("message", .object([("text", .string(item.0))])),
                                ])
                            })
                    ))
            }
            members.append(
                ("partialFingerprints", .object([(fingerprintName, .string(Fingerprint.of(diagnostic, lines: lines)))]))
            )
            if let fix = diagnostic.fix, let changes = artifactChanges(fix, at: diagnostic.location, lines: lines) {
                members.append(
                    (
                        "fixes",
                        .array([
                            .object([
                                ("description", .object([("text", .string(fix.title))])),
                                ("artifactChanges", .array(changes)),
                            ])
                        ])
                    ))
            }
            return .object(members)
        }
        let base = URL(fileURLWithPath: root, isDirectory: true).absoluteString
        return .object([
            ("$schema", .string(schema)),
            ("version", .string("2.1.0")),
            (
                "runs",
                .array([
                    .object([
                        (
                            "tool",
                            .object([
                                (
                                    "driver",
                                    .object([
                                        ("name", .string("livery")),
                                        ("version", .string(toolVersion)),
                                        ("informationUri", .string(documentationURL)),
                                        ("rules", .array(rules)),
                                    ])
                                )
                            ])
                        ),
                        (
                            "originalUriBaseIds",
                            .object([
                                ("%SRCROOT%", .object([("uri", .string(base.hasSuffix("/") ? base : base + "/"))]))
                            ])
                        ),
                        ("results", .array(results)),
                    ])
                ])
            ),
        ])
    }

    /// A relative path as a URI relative to `%SRCROOT%`; an absolute one as a `file:` URI on its own.
    static func artifact(_ path: String) -> JSONValue {
        if path.hasPrefix("/") {
            return .object([("uri", .string(URL(fileURLWithPath: path).absoluteString))])
        }
        return .object([("uri", .string(uri(path))), ("uriBaseId", .string("%SRCROOT%"))])
    }

    static func physical(_ location: SourceLocation) -> JSONValue {
        var physical: [(String, JSONValue)] = [("artifactLocation", artifact(location.file))]
        if let line = location.line {
            var region: [(String, JSONValue)] = [("startLine", .integer(Int64(line)))]
            if let column = location.column { region.append(("startColumn", .integer(Int64(column)))) }
            physical.append(("region", .object(region)))
        }
        return .object(physical)
    }

    /// A fix's edits as SARIF artifact changes, one per file in the order the edits name them,
    /// each edit a replacement of its exact region. All of the fix or none: nil when an edit's
    /// text is not where it should be (the file changed since it was checked).
    static func artifactChanges(_ fix: Diagnostic.Fix, at location: SourceLocation?, lines: SourceLines)
        -> [JSONValue]?
    {
        guard let placed = fix.placed(at: location) else { return nil }
        var files: [String] = []
        var replacements: [String: [JSONValue]] = [:]
        for (place, edit) in placed {
            guard let span = edit.span(from: place, lines: { lines.line($0, of: place.file) }) else { return nil }
            if replacements[place.file] == nil { files.append(place.file) }
            // endLine only for an edit of several lines: SARIF's default is the start line
            var region: [(String, JSONValue)] = [
                ("startLine", .integer(Int64(span.start.line))),
                ("startColumn", .integer(Int64(span.start.column))),
            ]
            if span.end.line != span.start.line { region.append(("endLine", .integer(Int64(span.end.line)))) }
            region.append(("endColumn", .integer(Int64(span.end.column))))
            replacements[place.file, default: []].append(
                .object([
                    ("deletedRegion", .object(region)),
                    ("insertedContent", .object([("text", .string(edit.replacement))])),
                ]))
        }
        return files.map { file in
            .object([("artifactLocation", artifact(file)), ("replacements", .array(replacements[file] ?? []))])
        }
    }

    /// A relative path as a URI reference: `./` dropped, characters outside the unreserved set
    /// and `/` percent-encoded (a space in `My Theme.theme` becomes `%20`).
    static func uri(_ path: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        var result = ""
        for byte in path.utf8 {
            let character = Character(UnicodeScalar(byte))
            if character.isASCII && (character.isLetter || character.isNumber || "-._~/".contains(character)) {
                result.append(character)
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
