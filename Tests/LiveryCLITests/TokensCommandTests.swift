import Foundation
import Testing

/// `livery tokens import|export` end to end: the built binary, its output, files and exit codes.
@Suite struct TokensCommandTests {
    func scratch() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-tokens-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Livery.root + "/Themes/Base.theme", toPath: folder + "/Base.theme")
        return folder
    }

    /// The README's worked example: the sample resolver gives the committed Tokens.theme, byte for byte.
    @Test func importingTheSampleTokensReproducesTokensTheme() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run([
            "tokens", "import", "--resolver", "Themes/tokens/tokens.resolver.json", "--output",
            folder + "/Tokens.theme",
            "--id", "com.livery.tokens", "--parent", "com.livery.base", "--themes", folder,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(
            run.stdout
                == "wrote \(folder)/Tokens.theme: 26 constants in Tokens.xml, Tokens~highcontrast.xml, Tokens~dark.xml\n"
        )
        for file in ["Info.xml", "Tokens.xml", "Tokens~dark.xml", "Tokens~highcontrast.xml"] {
            let made = FileManager.default.contents(atPath: folder + "/Tokens.theme/" + file)
            #expect(
                made != nil
                    && made == FileManager.default.contents(atPath: Livery.root + "/Themes/Tokens.theme/" + file),
                "\(file)")
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == ["Base.theme", "Tokens.theme"])
    }

    /// A resolver whose sets list each other as sources (the format's own negative case): one
    /// located error and exit 1, not endless recursion, and nothing written.
    @Test func aCircularResolverIsALocatedErrorNotACrash() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = "Tests/Fixtures/Resolver/negative/circular-sets.resolver.json"
        let run = try Livery.run([
            "tokens", "import", "--resolver", input, "--output", folder + "/Out.theme", "--id", "out",
        ])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "\(input):8:29: error: '#/sets/a' makes a circular reference between sets: a -> b -> a [token-resolver]\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Base.theme"])
    }

    /// With a machine format, stdout is exactly the one JSON document; the "wrote" line goes to stderr.
    @Test func machineOutputIsOneDocumentOnStdout() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run([
            "tokens", "import", "--resolver", "Themes/tokens/tokens.resolver.json", "--output",
            folder + "/Tokens.theme",
            "--id", "com.livery.tokens", "--parent", "com.livery.base", "--themes", folder, "--format", "json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "[]\n")
        #expect(run.stderr.hasPrefix("wrote \(folder)/Tokens.theme: 26 constants"))
        let failed = try Livery.run([
            "tokens", "import", "--resolver", "Tests/Fixtures/Resolver/negative/set-without-sources.resolver.json",
            "--output", folder + "/Out.theme", "--id", "out", "--format", "json",
        ])
        #expect(failed.status == 1)
        #expect(failed.stderr.isEmpty)
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(failed.stdout.utf8)) as? [[String: Any]], "\(failed.stdout)")
        #expect(array.count == 1)
        #expect(array.first?["line"] as? Int == 4 && array.first?["column"] as? Int == 13)
    }

    @Test func anInvalidTokenIsALocatedErrorAndNothingIsWritten() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = "Tests/Fixtures/DTCG/format/negative/colors/color-hsl-hue-equals-360.json"
        let run = try Livery.run(["tokens", "import", input, "--output", folder + "/Out.theme", "--id", "out"])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "\(input):8:22: error: component 1 of a hsl colour is 360; it must be in [0, 360) [token-value]\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/Out.theme"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Base.theme"])
    }

    @Test func anUnmappedContextNamesTheMapToAdd() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"a": {"$type": "number", "$value": 1}}"#.utf8).write(to: URL(fileURLWithPath: folder + "/a.json"))
        try Data(
            ##"{"version": "2025.10", "modifiers": {"theme": {"contexts": {"day": [], "night": [{"$ref": "a.json"}]}}}, "resolutionOrder": [{"$ref": "#/modifiers/theme"}]}"##
                .utf8
        )
        .write(to: URL(fileURLWithPath: folder + "/r.json"))
        let failed = try Livery.run(
            ["tokens", "import", "--resolver", "r.json", "--output", "T.theme", "--id", "t"], in: folder)
        #expect(failed.status == 1)
        #expect(
            failed.stderr.contains(
                "context 'night' of modifier 'theme' maps to no qualifier; add --map theme:night=QUALIFIER"))
        let mapped = try Livery.run(
            [
                "tokens", "import", "--resolver", "r.json", "--output", "T.theme", "--id", "t", "--map",
                "theme:night=dark",
            ], in: folder)
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/T.theme/Tokens~dark.xml"))
    }

    @Test func exportWritesTokensLayersAndAResolver() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run([
            "tokens", "export", "Themes/Tokens.theme", "--output", folder + "/tokens.json",
            "--resolver", folder + "/tokens.resolver.json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let tokens = try String(contentsOfFile: folder + "/tokens.json", encoding: .utf8)
        #expect(tokens.contains(#""$value": "{palette.teal.500}""#))
        let dark = try String(contentsOfFile: folder + "/tokens~dark.json", encoding: .utf8)
        #expect(dark.contains(#""$value": "{palette.green.400}""#))
        #expect(FileManager.default.fileExists(atPath: folder + "/tokens~highcontrast.json"))
        // Importing the export gives the same theme again.
        let again = try Livery.run([
            "tokens", "import", "--resolver", folder + "/tokens.resolver.json", "--output", folder + "/Again.theme",
            "--id", "com.livery.tokens", "--parent", "com.livery.base",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        for file in ["Tokens~dark.xml", "Tokens~highcontrast.xml"] {
            let exported = try String(contentsOfFile: folder + "/Again.theme/" + file, encoding: .utf8)
            let committed = try String(contentsOfFile: Livery.root + "/Themes/Tokens.theme/" + file, encoding: .utf8)
            #expect(
                exported.split(separator: "\n").dropFirst(2) == committed.split(separator: "\n").dropFirst(2), "\(file)"
            )
        }
    }

    /// A `number` with a fraction (the format suite's 1.5) comes back as a `number`, not a `dimension`;
    /// whole numbers stay numbers and dimensions stay dimensions.
    @Test func fractionalNumbersComeBackAsNumbers() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(
            #"{"ratio": {"$type": "number", "$value": 1.5}, "count": {"$type": "number", "$value": 4}, "gap": {"$type": "dimension", "$value": {"value": 0.5, "unit": "px"}}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: folder + "/n.json"))
        let imported = try Livery.run(["tokens", "import", "n.json", "--output", "N.theme", "--id", "t.n"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try Livery.run(["tokens", "export", "N.theme", "--output", "out.json"], in: folder)
        #expect(exported.status == 0, "\(exported.stderr)")
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out.json")))
                as? [String: Any])
        let ratio = try #require(root["ratio"] as? [String: Any])
        #expect(ratio["$type"] as? String == "number")
        #expect((ratio["$value"] as? NSNumber)?.doubleValue == 1.5)
        #expect((root["count"] as? [String: Any])?["$type"] as? String == "number")
        #expect((root["gap"] as? [String: Any])?["$type"] as? String == "dimension")
    }

    /// Format 1.2, section 8: typography tokens and `$root` tokens survive import then export.
    @Test func typographyAndRootTokensComeBackFromExport() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let imported = try Livery.run([
            "tokens", "import", "Tests/Fixtures/Typography/tokens/typography.json", "--output", folder + "/Type.theme",
            "--id", "com.test.type",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let xml = try String(contentsOfFile: folder + "/Type.theme/Tokens.xml", encoding: .utf8)
        #expect(
            xml.contains(
                #"<font name="type.caption" family="Inter" size="12" weight="light" letter-spacing="0.4" line-height="1.25"/>"#
            ))
        let roots = try String(contentsOfFile: folder + "/Type.theme/Tokens.roots.json", encoding: .utf8)
        #expect(roots.contains("\"color.background.disabled\"") && roots.contains("\"type.heading\""))
        let exported = try Livery.run(["tokens", "export", folder + "/Type.theme", "--output", folder + "/type.json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let json = try String(contentsOfFile: folder + "/type.json", encoding: .utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let disabled =
            ((root["color"] as? [String: Any])?["background"] as? [String: Any])?["disabled"] as? [String: Any]
        #expect((disabled?["$root"] as? [String: Any])?["$type"] as? String == "color")
        let heading = ((root["type"] as? [String: Any])?["heading"] as? [String: Any])?["$root"] as? [String: Any]
        #expect(heading?["$type"] as? String == "typography")
        // Importing over the folder again works: the roots file is one an import writes.
        let again = try Livery.run([
            "tokens", "import", folder + "/type.json", "--output", folder + "/Type.theme", "--id", "com.test.type",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        func constants(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { $0.contains(" name=") }.sorted()
        }
        #expect(
            constants(try String(contentsOfFile: folder + "/Type.theme/Tokens.xml", encoding: .utf8)) == constants(xml))
    }

    /// The sample themes' title, message and caption fonts export as typography tokens.
    @Test func theSampleFontsExportAsTypography() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run(["tokens", "export", "Themes/Base.theme", "--output", folder + "/base.json"])
        #expect(run.status == 0, "\(run.stderr)")
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/base.json")))
                as? [String: Any])
        let title = try #require(root["fontTitle"] as? [String: Any])
        #expect(title["$type"] as? String == "typography")
        #expect(((title["$value"] as? [String: Any])?["lineHeight"] as? NSNumber)?.doubleValue == 1.2)
        #expect(
            (((title["$extensions"] as? [String: Any])?["com.livery"] as? [String: Any])?["absent"] as? [String]) == [
                "letterSpacing"
            ])
        let caption = try #require(root["fontCaption"] as? [String: Any])
        let spacing = (caption["$value"] as? [String: Any])?["letterSpacing"] as? [String: Any]
        #expect((spacing?["value"] as? NSNumber)?.doubleValue == 0.3 && spacing?["unit"] as? String == "px")
        #expect(((root["fontBody"] as? [String: Any])?["$value"] as? [String: Any])?["lineHeight"] as? NSNumber == 1.35)
    }
}
