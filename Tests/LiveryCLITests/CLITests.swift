import Foundation
import Testing

@Suite struct CLITests {
    @Test func validatesTheSampleThemes() throws {
        let run = try Livery.run(["validate", "Themes"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout == "ok: 5 themes checked, 0 errors, 0 warnings\n")
    }

    @Test func reportsLocatedErrorsAndExitsOne() throws {
        let folder = try scratchTheme(
            chat: """
                <theme>
                  <instances>
                    <uibutton id="b">
                      <operation name="backgroundColour"><param name="color"><color>#F00</color></param></operation>
                    </uibutton>
                  </instances>
                </theme>
                """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run(["validate", "Broken.theme"], in: folder)
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "Broken.theme/Chat.xml:4:7: error: unknown operation 'backgroundColour' for uibutton; did you mean 'backgroundColor'? [operation-unknown]\n"
        )
        #expect(run.stdout.hasPrefix("failed: 1 theme checked, 1 error"))
    }

    @Test func printsJSONDiagnostics() throws {
        let folder = try scratchTheme(chat: "<theme><constants><float name=\"r\">NaN</float></constants></theme>")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run(["validate", "Broken.theme", "--format", "json"], in: folder)
        #expect(run.status == 1)
        // The document on stdout, so that it can be piped; nothing else on either stream.
        #expect(run.stderr.isEmpty)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let first = try #require(array.first { $0["code"] as? String == "value-invalid" })
        #expect(first["file"] as? String == "Broken.theme/Chat.xml")
        #expect(first["line"] as? Int == 1)
        #expect(first["column"] as? Int == 35)
        #expect(first["severity"] as? String == "error")
        #expect((first["message"] as? String)?.contains("NaN") == true)
    }

    @Test func dumpsResolvedThemesWithInheritanceAtWork() throws {
        func instances(_ arguments: [String]) throws -> [String: Any] {
            let run = try Livery.run(["dump"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            return try #require(object["instances"] as? [String: Any])
        }
        func color(_ instances: [String: Any], _ id: String, _ operation: String, state: String = "normal") -> String? {
            let entry = instances[id] as? [String: Any]
            let operations = entry?["operations"] as? [[String: Any]] ?? []
            let match = operations.first { $0["name"] as? String == operation && $0["state"] as? String == state }
            let params = match?["params"] as? [String: Any]
            return (params?["color"] as? [String: Any])?["color"] as? String
        }
        let base = try instances(["Themes/Base.theme"])
        let light = try instances(["Themes/Light.theme"])
        let dark = try instances(["Themes/Dark.theme", "--traits", "dark"])
        // Light redefines `brand`; Base's bubble, derived from it, recolours (late binding), lightened
        // or darkened just enough for message text (Base's #007AFF to #0D81FF, Dark's #0A84FF to
        // #086ACC under light text); Light's teal needs no change
        #expect(color(base, "bubble_outgoing", "bubbleColor") == "#0D81FFFF")
        #expect(color(light, "bubble_outgoing", "bubbleColor") == "#00A3A3FF")
        #expect(color(dark, "bubble_outgoing", "bubbleColor") == "#086ACCFF")
        #expect(color(dark, "bubble_outgoing", "bubbleColor", state: "highlighted") == "#0066CCFF")
    }

    @Test func dumpsTheCanonicalHeader() throws {
        let run = try Livery.run(["dump", "Themes/Dark.theme", "--traits", "dark,iPad", "--scale", "2"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "com.livery.dark")
        #expect(object["parent"] as? String == "com.livery.base")
        #expect(object["traits"] as? [String] == ["ipad", "dark"])
        #expect(object["scale"] as? Int == 2)
        let base = try Livery.run(["dump", "Themes/Base.theme"])
        #expect(base.stdout.contains("\"parent\": null"))
        #expect(base.stdout.contains("\"traits\": []"))
    }

    @Test func findsParentsThroughThemesFolders() throws {
        let folder = try scratchTheme(chat: "<theme/>", parent: "com.livery.base")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = try Livery.run(["validate", folder + "/Broken.theme"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "Info.xml:1:39: error: parent theme 'com.livery.base' not found in: \(folder)/; add its folder with --themes DIR [parent-missing]"
            ))
        let found = try Livery.run(["validate", folder + "/Broken.theme", "--themes", "Themes"])
        #expect(found.status == 0, "\(found.stderr)")
        let dump = try Livery.run(["dump", folder + "/Broken.theme", "--themes", "Themes"])
        #expect(dump.status == 0 && dump.stdout.contains("\"bubble_outgoing\""))
    }

    @Test(arguments: [
        ["validate"],
        ["validate", "Themes", "--format", "xml"],
        ["validate", "Themes", "--bogus"],
        ["dump", "Themes/Base.theme", "--traits", "tablet"],
        ["dump", "Themes/Base.theme", "--traits", "light,dark"],
        ["dump", "Themes/Base.theme", "--scale", "0"],
        ["dump"],
        ["frobnicate"],
    ])
    func usageErrorsExit64(_ arguments: [String]) throws {
        let run = try Livery.run(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
    }

    @Test func aNamedFolderWithInfoIsAThemeWhateverItsName() throws {
        let folder = try scratchTheme(chat: "<theme><instances><uiview id=\"v\"/></instances></theme>")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.moveItem(atPath: folder + "/Broken.theme", toPath: folder + "/Plain")
        let run = try Livery.run(["validate", "Plain"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "ok: 1 theme checked, 0 errors, 0 warnings\n")
    }

    @Test func missingInputIsAnErrorNotACrash() throws {
        let run = try Livery.run(["dump", "Themes/Nope.theme"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("Themes/Nope.theme: error:"))
        let validate = try Livery.run(["validate", "Themes/Nope.theme"])
        #expect(validate.status == 1 && validate.stderr.contains("[path-not-found]"))
    }

    /// A temporary folder holding `Broken.theme` with the given Chat.xml.
    func scratchTheme(chat: String, parent: String? = nil) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-cli-\(UUID().uuidString)")
        let theme = folder.appendingPathComponent("Broken.theme")
        try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
        let parentAttribute = parent.map { " parent=\"\($0)\"" } ?? ""
        try Data("<theme-info id=\"broken\" name=\"Broken\"\(parentAttribute)/>".utf8).write(
            to: theme.appendingPathComponent("Info.xml"))
        try Data(chat.utf8).write(to: theme.appendingPathComponent("Chat.xml"))
        return folder.path
    }
}
