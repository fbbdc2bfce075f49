import LiveryModel

/// Diagnostics as a SARIF 2.1.0 log, the format CI systems (GitHub code scanning, GitLab, Azure
/// DevOps) read to annotate the lines of theme files in a pull request.
public enum SARIF {
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    public static func log(_ diagnostics: [Diagnostic], toolVersion: String = "1.0.0") -> JSONValue {
        let codes = Array(Set(diagnostics.map(\.code))).sorted()
        let rules = codes.map { code in
            JSONValue.object([
                ("id", .string(code.rawValue)),
                ("shortDescription", .object([("text", .string("Livery diagnostic \(code.rawValue) (see docs/Diagnostics.md)"))])),
            ])
        }
        let results = diagnostics.map { diagnostic -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("ruleId", .string(diagnostic.code.rawValue)),
                ("ruleIndex", .integer(Int64(codes.firstIndex(of: diagnostic.code) ?? 0))),
                ("level", .string(diagnostic.severity == .error ? "error" : "warning")),
                ("message", .object([("text", .string(diagnostic.message))])),
            ]
            if let location = diagnostic.location {
                var physical: [(String, JSONValue)] = [("artifactLocation", .object([
                    ("uri", .string(uri(location.file))),
                    ("uriBaseId", .string("%SRCROOT%")),
                ]))]
                if let line = location.line {
                    var region: [(String, JSONValue)] = [("startLine", .integer(Int64(line)))]
                    if let column = location.column { region.append(("startColumn", .integer(Int64(column)))) }
                    physical.append(("region", .object(region)))
                }
                members.append(("locations", .array([.object([("physicalLocation", .object(physical))])])))
            }
            return .object(members)
        }
        return .object([
            ("$schema", .string(schema)),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object([
                    ("name", .string("livery")),
                    ("version", .string(toolVersion)),
                    ("rules", .array(rules)),
                ]))])),
                ("results", .array(results)),
            ])])),
        ])
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
