import Foundation
import LiveryModel
import Testing

/// App-defined dimensions through the command line: the sample Base theme declares `density`
/// (compact, comfortable) and has a `~compact` layer.
@Suite struct DimensionCommandTests {
    /// The sample's dimensions: the standard ones and the one Base.theme declares.
    static let sample = try! TraitDimensions(
        appDefined: [TraitDimension(name: "density", values: ["compact", "comfortable"])])

    func scratch() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-dims-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Livery.root + "/Themes/Base.theme", toPath: folder + "/Base.theme")
        return folder
    }

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Every message that lists the tags a command takes lists every dimension of the table and
    /// every value, app-defined ones included: a dimension missing from one fails here.
    @Test func everyMessageListingTagsListsEveryDimensionOfTheTable() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(
            "<theme><instances/></theme>", to: folder + "/Base.theme/Chat~bogus.xml")
        try write(#"{"a": {"$type": "number", "$value": 1}}"#, to: folder + "/a.json")
        let runs = [
            ("dump --traits", try Livery.run(["dump", "Themes/Base.theme", "--traits", "bogus"])),
            (
                "explain --traits",
                try Livery.run(["explain", "Themes/Base.theme", "bubble_incoming", "--traits", "bogus"])
            ),
            ("diff --traits", try Livery.run(["diff", "Themes/Base.theme", "Themes/Base.theme", "--traits", "bogus"])),
            (
                "tokens export --traits",
                try Livery.run(["tokens", "export", "Themes/Base.theme", "-o", folder + "/x.json", "--traits", "bogus"])
            ),
            ("a qualifier", try Livery.run(["validate", folder + "/Base.theme"])),
            (
                "tokens import --map",
                try Livery.run(
                    [
                        "tokens", "import", "a.json", "-o", "T.theme", "--id", "t", "--parent", "com.livery.base",
                        "--map", "theme:x=bogus",
                    ], in: folder)
            ),
        ]
        for (what, run) in runs {
            #expect(run.status != 0, "\(what)")
            #expect(run.stderr.contains("bogus"), "\(what): \(run.stderr)")
            for tag in Self.sample.knownTags {
                #expect(run.stderr.contains(tag), "\(what) does not list '\(tag)': \(run.stderr)")
            }
        }
    }

    /// `--traits compact` reads the sample's own dimension: the folder and its compiled file dump
    /// the same, the explanation names the layer, and a diff says where a change happens.
    @Test func theSampleDensityIsDumpedCompiledExplainedAndDiffed() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let base = folder + "/Base.theme"
        let compiled = folder + "/Base.livery"
        let compile = try Livery.run(["compile", base, "--output", compiled])
        #expect(compile.status == 0, "\(compile.stderr)")
        let fromFolder = try Livery.run(["dump", base, "--traits", "compact,dark"])
        let fromFile = try Livery.run(["dump", compiled, "--traits", "compact,dark"])
        #expect(fromFolder.status == 0 && fromFile.status == 0, "\(fromFolder.stderr)\(fromFile.stderr)")
        #expect(fromFolder.stdout == fromFile.stdout)
        #expect(fromFolder.stdout.contains("\"traits\": [\n    \"dark\",\n    \"compact\"\n  ]"))
        let generic = try Livery.run(["dump", compiled])
        #expect(generic.stdout != fromFile.stdout.replacingOccurrences(of: "\n    \"compact\"", with: ""))

        let explain = try Livery.run(["explain", base, "bubble_incoming", "--traits", "compact"])
        #expect(explain.status == 0, "\(explain.stderr)")
        #expect(explain.stdout.contains("traits compact"), "\(explain.stdout)")
        #expect(explain.stdout.contains("Chat~compact.xml"), "\(explain.stdout)")

        let old = folder + "/Old.theme"
        try FileManager.default.copyItem(atPath: base, toPath: old)
        try FileManager.default.removeItem(atPath: old + "/Chat~compact.xml")
        let diff = try Livery.run(["diff", old, base])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("bubble_incoming.textInsets"), "\(diff.stdout)")
        // not with ipad or large text: their layers come before density's and set the insets too
        #expect(diff.stdout.contains("-> insets 4, 8, 4, 8  [in compact; rtl,compact; dark,compact;"), "\(diff.stdout)")
    }

    static let densityResolver = ##"""
        {"version": "2025.10",
         "sets": {"base": {"sources": [{"$ref": "base.json"}]}},
         "modifiers": {"density": {"contexts": {"default": [], "compact": [{"$ref": "compact.json"}],
                                                 "comfortable": [{"$ref": "comfortable.json"}]},
                                    "default": "default"}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/density"}]}
        """##

    func gap(_ value: Int) -> String { #"{"gap": {"$type": "number", "$value": \#(value)}}"# }

    /// A DTCG `density` modifier imports into `~compact` and `~comfortable` layers of a theme whose
    /// parent declares the dimension, exports back to the same modifier, and imports again the same.
    @Test func aDensityModifierRoundTripsThroughTokens() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(gap(8), to: folder + "/base.json")
        try write(gap(4), to: folder + "/compact.json")
        try write(gap(12), to: folder + "/comfortable.json")
        try write(Self.densityResolver, to: folder + "/r.json")
        let imported = try Livery.run(
            [
                "tokens", "import", "--resolver", "r.json", "--output", "Dense.theme", "--id", "dense", "--parent",
                "com.livery.base",
            ], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: folder + "/Dense.theme").sorted()
        #expect(made == ["Info.xml", "Tokens.xml", "Tokens~comfortable.xml", "Tokens~compact.xml"])
        let compact = try String(contentsOfFile: folder + "/Dense.theme/Tokens~compact.xml", encoding: .utf8)
        #expect(compact.contains("<float>4</float>") || compact.contains(">4<"), "\(compact)")

        let exported = try Livery.run(
            ["tokens", "export", "Dense.theme", "-o", "tokens.json", "--resolver", "resolver.json"],
            in: folder)
        #expect(exported.status == 0, "\(exported.stderr)")
        // compact with the parent's traits (dark, rtl...) is what the one layer gives: nothing lost
        #expect(!exported.stderr.contains("not exported"), "\(exported.stderr)")
        let resolver = try String(contentsOfFile: folder + "/resolver.json", encoding: .utf8)
        #expect(resolver.contains(#""density""#), "\(resolver)")
        #expect(resolver.contains(#""tokens~compact.json""#) && resolver.contains(#""tokens~comfortable.json""#))

        let again = try Livery.run(
            [
                "tokens", "import", "--resolver", "resolver.json", "--output", "Again.theme", "--id", "dense",
                "--parent", "com.livery.base",
            ], in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        for file in ["Tokens~compact.xml", "Tokens~comfortable.xml"] {
            let first = try String(contentsOfFile: folder + "/Dense.theme/" + file, encoding: .utf8)
            let second = try String(contentsOfFile: folder + "/Again.theme/" + file, encoding: .utf8)
            // the first lines name the source files, which differ
            #expect(first.split(separator: "\n").dropFirst(2) == second.split(separator: "\n").dropFirst(2), "\(file)")
        }
    }

    /// Without a parent that declares it, a `--schema` file declares the dimension for the
    /// import, its validation and the export.
    @Test func aSchemaFileDeclaresTheDimensionForATokensImport() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(gap(8), to: folder + "/base.json")
        try write(gap(4), to: folder + "/compact.json")
        try write(gap(12), to: folder + "/comfortable.json")
        try write(Self.densityResolver, to: folder + "/r.json")
        try write(
            #"<components><dimension name="density" values="compact comfortable"/></components>"#,
            to: folder + "/app.xml")
        let unknown = try Livery.run(
            ["tokens", "import", "--resolver", "r.json", "--output", "Dense.theme", "--id", "dense"], in: folder)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("context 'compact' of modifier 'density' maps to no qualifier"))
        let imported = try Livery.run(
            [
                "tokens", "import", "--resolver", "r.json", "--output", "Dense.theme", "--id", "dense", "--schema",
                "app.xml",
            ], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/Dense.theme/Tokens~compact.xml"))
        let validated = try Livery.run(["validate", "Dense.theme", "--schema", "app.xml"], in: folder)
        #expect(validated.status == 0, "\(validated.stderr)")
    }
}
