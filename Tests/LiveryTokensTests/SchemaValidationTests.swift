import Foundation
import LiveryModel
import LiveryTokens
import Testing

/// Exported files validate against the format's own JSON schema (Tests/Fixtures/DTCG/schemas),
/// checked by Python's `jsonschema` (installed with pip when missing).
struct SchemaValidationTests {
    static let checker = """
        import json, sys, os
        from jsonschema import Draft7Validator, RefResolver
        root = sys.argv[1]
        store = {}
        for folder, _, files in os.walk(root):
            for name in files:
                if name.endswith(".json"):
                    schema = json.load(open(os.path.join(folder, name)))
                    store[schema["$id"]] = schema
        schema = store["https://www.designtokens.org/schemas/2025.10/" + sys.argv[2]]
        validator = Draft7Validator(schema, resolver=RefResolver.from_schema(schema, store=store))
        errors = list(validator.iter_errors(json.load(open(sys.argv[3]))))
        for error in errors[:5]:
            print("/".join(str(p) for p in error.absolute_path), error.message[:300])
        sys.exit(1 if errors else 0)
        """

    @discardableResult
    static func run(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    static func ensureJSONSchema() throws {
        if try run(["python3", "-c", "import jsonschema"]).0 == 0 { return }
        try run(["python3", "-m", "pip", "install", "--quiet", "--user", "jsonschema"])
        if try run(["python3", "-c", "import jsonschema"]).0 != 0 {
            try run(["python3", "-m", "pip", "install", "--quiet", "--user", "--break-system-packages", "jsonschema"])
        }
    }

    static func validate(_ document: JSONValue, against schema: String) throws -> (Int32, String) {
        try ensureJSONSchema()
        let folder = NSTemporaryDirectory() + "livery-schema-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(document.rendered().utf8).write(to: URL(fileURLWithPath: folder + "/document.json"))
        try Data(checker.utf8).write(to: URL(fileURLWithPath: folder + "/check.py"))
        return try run([
            "python3", folder + "/check.py", ConformanceTests.root + "/schemas", schema, folder + "/document.json",
        ])
    }

    @Test func exportedTokensMatchTheFormatSchema() throws {
        let constants: [ExportedConstant] = [
            ExportedConstant(
                name: "color.brand", value: .color(Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5)), reference: nil),
            ExportedConstant(
                name: "color.accent", value: .color(Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5)),
                reference: "color.brand"),
            ExportedConstant(name: "radius", value: .float(8), reference: nil),
            ExportedConstant(name: "radius.large", value: .float(16), reference: nil),
            ExportedConstant(name: "count", value: .integer(3), reference: nil),
            ExportedConstant(name: "face", value: .font(Font(family: "Inter", size: nil)), reference: nil),
            ExportedConstant(
                name: "body", value: .font(Font(family: "Inter", size: 16, weight: .semibold)), reference: nil),
            ExportedConstant(
                name: "heading", value: .font(Font(family: "Inter", size: 16, weight: .semibold)), reference: "body"),
            ExportedConstant(
                name: "caption", value: .font(Font(family: "Inter", size: 12, letterSpacing: -0.25, lineHeight: 1.3)),
                reference: nil),
            ExportedConstant(
                name: "leading", value: .font(Font(family: "Inter", size: nil, lineHeight: 1.5)), reference: nil),
            ExportedConstant(name: "strong", value: .enumeration("bold"), reference: nil),
            ExportedConstant(name: "title", value: .string("Hello"), reference: nil),
        ]
        var exporter = TokenExporter()
        let document = exporter.document(constants)
        #expect(
            exporter.skippedWarning?.message == "skipped constants of types DTCG has no token type for: string (title)")
        let (status, output) = try Self.validate(document, against: "format.json")
        #expect(status == 0, "\(output)\n\(document.rendered())")
        #expect(document.rendered().contains(#""$root": {"#))
        #expect(
            document.rendered().contains(#""$extensions": {"#), "the record of absent typography members is valid DTCG")
    }

    /// The check must be able to fail: a token without $value and with an unknown property is rejected.
    @Test func theSchemaCheckRejectsAnInvalidDocument() throws {
        let bad = JSONValue.object([
            (
                "color",
                .object([
                    ("$type", .string("color")),
                    ("$value", .object([("colorSpace", .string("cmyk")), ("components", .array([]))])),
                ])
            )
        ])
        let (status, output) = try Self.validate(bad, against: "format.json")
        #expect(status == 1)
        #expect(output.contains("color"))
    }

    @Test func exportedResolverMatchesTheResolverSchema() throws {
        let document = TokenExporter.resolver(
            name: "Tokens", baseFile: "tokens.json",
            layers: [
                (TraitSet(appearance: .dark), "tokens~dark.json"),
                (TraitSet(contrast: .highcontrast), "tokens~highcontrast.json"),
            ])
        let (status, output) = try Self.validate(document, against: "resolver.json")
        #expect(status == 0, "\(output)\n\(document.rendered())")
    }
}
