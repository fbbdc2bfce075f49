import Foundation
import Testing

/// `livery build` incrementally, on several cores and in shards, end to end through the built
/// binary on copies of the samples: every way of building gives the bytes of a serial cold
/// build, and an output that would not change is never touched.
@Suite struct IncrementalBuildTests {
    /// A file's bytes and modification time.
    struct FileState: Equatable {
        var bytes: Data
        var modified: Date
    }

    /// Every file under `folder`, hidden ones (the stamps) too, by relative path.
    static func snapshot(_ folder: String) throws -> [String: FileState] {
        var files: [String: FileState] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        while let relative = enumerator.nextObject() as? String {
            let path = folder + "/" + relative
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[relative] = FileState(
                bytes: try Data(contentsOf: URL(fileURLWithPath: path)),
                modified: try #require(attributes[.modificationDate] as? Date))
        }
        return files
    }

    static func bytes(_ snapshot: [String: FileState]) -> [String: Data] { snapshot.mapValues(\.bytes) }

    /// Theme id -> status, from the summary table.
    static func statuses(_ stdout: String) -> [String: String] {
        var statuses: [String: String] = [:]
        for line in stdout.split(separator: "\n").dropFirst() {
            let cells = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            if cells.count >= 3, !line.hasPrefix("*") { statuses[cells[0]] = cells[2] }
        }
        return statuses
    }

    static let ids = ["base", "dark", "highcontrast", "light", "tokens"].map { "com.livery." + $0 }

    static func all(_ status: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: ids.map { ($0, status) })
    }

    static func build(_ copy: ThemesCopy, _ extra: [String] = [], output: String = "out") throws -> LiveryRun {
        try Livery.run(["build", "Themes", "-o", output] + extra, in: copy.path)
    }

    @Test func aSecondBuildCompilesNothingAndTouchesNothing() throws {
        let copy = try ThemesCopy()
        let cold = try Self.build(copy, ["--jobs", "1"])
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(Self.statuses(cold.stdout) == Self.all("compiled"), "\(cold.stdout)")
        #expect(cold.stdout.contains("5 themes: 5 compiled, 0 up to date, 0 failed; output in out\n"))
        let before = try Self.snapshot(copy.path + "/out")
        #expect(before.keys.sorted().filter { $0.hasSuffix(".livery") }.count == 5)

        let again = try Self.build(copy)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.statuses(again.stdout) == Self.all("up to date"), "\(again.stdout)")
        #expect(again.stdout.contains("5 themes: 0 compiled, 5 up to date, 0 failed"))
        #expect(try Self.snapshot(copy.path + "/out") == before)

        // A file written again with the same bytes (a checkout, a touch) is the same source.
        try copy.write("Themes/Base.theme/Chat.xml", try copy.read("Themes/Base.theme/Chat.xml"))
        #expect(Self.statuses(try Self.build(copy).stdout) == Self.all("up to date"))

        // --force compiles everything again, and still rewrites no output whose bytes are the same.
        let forced = try Self.build(copy, ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(Self.statuses(forced.stdout) == Self.all("unchanged"), "\(forced.stdout)")
        #expect(try Self.snapshot(copy.path + "/out") == before)
    }

    @Test func aChangedBaseRebuildsItsChildrenAndAChangedBrandOnlyItself() throws {
        let copy = try ThemesCopy()
        #expect(try Self.build(copy).status == 0)
        try copy.edit("Themes/Base.theme/Constants.xml", "#0062CC", "#0062CD")
        let base = try Self.build(copy)
        #expect(base.status == 0, "\(base.stderr)")
        // every theme descends from Base: through Dark (HighContrast) and Tokens (Light) too
        #expect(Self.statuses(base.stdout) == Self.all("compiled"), "\(base.stdout)")
        let afterBase = try Self.snapshot(copy.path + "/out")

        try copy.edit("Themes/Light.theme/Chat.xml", "<enum>left</enum>", "<enum>right</enum>")
        let brand = try Self.build(copy)
        var expected = Self.all("up to date")
        expected["com.livery.light"] = "compiled"
        #expect(Self.statuses(brand.stdout) == expected, "\(brand.stdout)")
        let afterBrand = try Self.snapshot(copy.path + "/out")
        for (file, state) in afterBrand where !file.hasPrefix("Light.") && !file.hasSuffix("/Light.json") {
            #expect(afterBase[file] == state, "\(file) was rewritten")
        }
        #expect(afterBase["Light.livery"]?.bytes != afterBrand["Light.livery"]?.bytes)

        // the incremental output is the cold build's, byte for byte
        let cold = try Self.build(copy, ["--jobs", "1"], output: "cold")
        #expect(Self.statuses(cold.stdout) == Self.all("compiled"))
        #expect(Self.bytes(afterBrand) == Self.bytes(try Self.snapshot(copy.path + "/cold")))
    }

    @Test func aDeletedDamagedOrForeignOutputIsRebuiltNotTrusted() throws {
        let copy = try ThemesCopy()
        #expect(try Self.build(copy).status == 0)
        let out = copy.path + "/out"
        let cold = try Self.snapshot(out)
        // The stamp records the compiled file's SHA-256 in lower-case hex, as sha256sum prints it.
        let original = try Livery.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", "out/Base.livery"], in: copy.path
        ).stdout.prefix(64)
        #expect(try copy.read("out/.livery-build/Base.json").contains("\"compiled\" : \"\(original)\""))
        try FileManager.default.removeItem(atPath: out + "/Dark.livery")
        var damaged = try Data(contentsOf: URL(fileURLWithPath: out + "/HighContrast.livery"))
        damaged[damaged.count / 2] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: out + "/HighContrast.livery"))
        try Data("not a theme".utf8).write(to: URL(fileURLWithPath: out + "/Light.livery"))
        try Data("{".utf8).write(to: URL(fileURLWithPath: out + "/.livery-build/Tokens.json"))
        // A stamp that vouches for damaged bytes (digest and size forged to match) is still not
        // trusted: the reader's verifier checks the file itself.
        var forged = try Data(contentsOf: URL(fileURLWithPath: out + "/Base.livery"))
        forged[forged.count - 40] ^= 0x01
        try forged.write(to: URL(fileURLWithPath: out + "/Base.livery"))
        let digest = try Livery.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", "out/Base.livery"], in: copy.path
        ).stdout.prefix(64)
        let stamp = try copy.read("out/.livery-build/Base.json")
        let recorded = try #require(stamp.firstMatch(of: /"compiled" : "([0-9a-f]{64})"/)?.1)
        try copy.write("out/.livery-build/Base.json", stamp.replacingOccurrences(of: recorded, with: digest))

        let run = try Self.build(copy)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            Self.statuses(run.stdout) == [
                "com.livery.base": "compiled", "com.livery.dark": "compiled", "com.livery.highcontrast": "compiled",
                "com.livery.light": "compiled", "com.livery.tokens": "unchanged",
            ], "\(run.stdout)")
        #expect(Self.bytes(try Self.snapshot(out)) == Self.bytes(cold))
    }

    @Test func aChangedSchemaFileRebuildsEveryTheme() throws {
        let copy = try ThemesCopy()
        let schema = """
            <components>
              <component name="badge" extends="uiview">
                <operation name="badgeColor"><param name="color" type="color"/></operation>
              </component>
            </components>

            """
        try copy.write("Extra.xml", schema)
        #expect(try Self.build(copy, ["--schema", "Extra.xml"]).status == 0)
        #expect(Self.statuses(try Self.build(copy, ["--schema", "Extra.xml"]).stdout) == Self.all("up to date"))
        try copy.write("Extra.xml", schema.replacingOccurrences(of: "badgeColor", with: "badgeTint"))
        let changed = try Self.build(copy, ["--schema", "Extra.xml"])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(!Self.statuses(changed.stdout).values.contains("up to date"), "\(changed.stdout)")
        let cold = try Self.build(copy, ["--schema", "Extra.xml", "--jobs", "1"], output: "cold")
        #expect(cold.status == 0)
        #expect(Self.bytes(try Self.snapshot(copy.path + "/out")) == Self.bytes(try Self.snapshot(copy.path + "/cold")))
    }

    /// A small tree of brands, cheap to build many times: Root.theme with a warning every brand
    /// shows (an attribute the format does not have), seven brands overriding its colour, and
    /// Brand4 with an error of its own.
    static func brands() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-brands-\(UUID().uuidString)")
            .path
        func put(_ file: String, _ text: String) throws {
            let path = folder + "/Themes/" + file
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try put("Root.theme/Info.xml", #"<theme-info id="com.brands.root" name="Root"/>"#)
        try put(
            "Root.theme/Screen.xml",
            """
            <theme>
              <constants><color name="brand">#007AFF</color></constants>
              <instances>
                <uilabel id="title" note="draft">
                  <operation name="textColor"><param name="color"><color ref="brand"/></param></operation>
                </uilabel>
              </instances>
            </theme>
            """)
        for index in 1...7 {
            try put(
                "Brand\(index).theme/Info.xml",
                #"<theme-info id="com.brands.\#(index)" name="Brand \#(index)" parent="com.brands.root"/>"#)
            let colour = index == 4 ? "#0A84FG" : "#0\(index)84FF"
            try put(
                "Brand\(index).theme/Constants.xml",
                "<theme><constants><color name=\"brand\">\(colour)</color></constants></theme>")
        }
        return folder
    }

    @Test func parallelAndShardedBuildsEqualASerialBuildByteForByte() throws {
        let folder = try Self.brands()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func build(_ extra: [String], output: String = "out") throws -> LiveryRun {
            try Livery.run(["build", "Themes", "-o", output] + extra, in: folder)
        }
        let out = folder + "/out"
        for format in ["text", "json"] {
            let serial = try build(["--jobs", "1", "--format", format])
            #expect(serial.status == 1)
            let serialFiles = try Self.snapshot(out)
            #expect(serialFiles.keys.filter { $0.hasSuffix(".livery") }.count == 7)
            try FileManager.default.removeItem(atPath: out)
            let parallel = try build(["--jobs", "3", "--format", format])
            #expect(parallel.status == serial.status)
            #expect(parallel.stdout == serial.stdout)
            #expect(parallel.stderr == serial.stderr)
            #expect(Self.bytes(try Self.snapshot(out)) == Self.bytes(serialFiles))
            try FileManager.default.removeItem(atPath: out)
        }
        #expect(try build(["--jobs", "1"]).status == 1)
        let full = Self.bytes(try Self.snapshot(out))
        #expect(full.keys.contains("Root.livery") && !full.keys.contains("Brand4.livery"))
        for count in [2, 3] {
            var union: [String: Data] = [:]
            var themes = 0
            for index in 1...count {
                let run = try build(["--shard", "\(index)/\(count)"], output: "shard-\(index)")
                // a shard fails only when it owns the broken theme
                #expect(run.status == (run.stdout.contains("Brand4.theme") ? 1 : 0), "\(run.stdout)")
                let summary = try #require(run.stdout.firstMatch(of: /shard \d\/\d: (\d) themes?:/), "\(run.stdout)")
                themes += Int(summary.1)!
                let files = Self.bytes(try Self.snapshot(folder + "/shard-\(index)"))
                #expect(Set(files.keys).isDisjoint(with: union.keys), "shards overlap")
                union.merge(files) { first, _ in first }
            }
            #expect(themes == 8)
            #expect(union == full)
            for index in 1...count { try FileManager.default.removeItem(atPath: folder + "/shard-\(index)") }
        }
        #expect(try build(["--shard", "3/2"]).status == 64)
        #expect(try build(["--jobs", "0"]).status == 64)
    }

    @Test func findingsNameTheirThemesAndAFailingThemeStopsNoOther() throws {
        let folder = try Self.brands()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run(["build", "Themes", "-o", "out"], in: folder)
        #expect(run.status == 1)
        let statuses = Self.statuses(run.stdout)
        #expect(statuses["Brand4.theme"] == "failed", "\(run.stdout)")
        #expect(statuses.values.filter { $0 == "compiled" }.count == 7, "\(run.stdout)")
        #expect(run.stdout.contains("8 themes: 7 compiled, 0 up to date, 1 failed"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/Brand4.livery"))
        #expect(run.stderr.contains("Themes/Brand4.theme/Constants.xml:1:"), "\(run.stderr)")
        // Root's warning, seen through every theme: one finding, its themes listed
        #expect(run.stderr.components(separatedBy: "[attribute-unknown]").count == 2, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "note: applies to themes Brand1.theme, Brand2.theme, Brand3.theme, Brand4.theme, Brand5.theme, Brand6.theme, Brand7.theme, Root.theme\n"
            ), "\(run.stderr)")

        // Again: only Brand4 is checked, and Root's warning names the one theme it is about now.
        let json = try Livery.run(["build", "Themes", "-o", "out", "--format", "json"], in: folder)
        #expect(json.status == 1)
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json.stdout)")
        let warning = try #require(array.first { $0["code"] as? String == "attribute-unknown" })
        let notes = (warning["notes"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(notes.contains("applies to theme Brand4.theme"), "\(notes)")
        #expect(json.stderr.contains("8 themes: 0 compiled, 7 up to date, 1 failed"), "\(json.stderr)")
        // and in SARIF, the same note on the result's message
        let sarif = try Livery.run(["build", "Themes", "-o", "out", "--format", "sarif"], in: folder)
        #expect(sarif.stdout.contains("applies to theme Brand4.theme"), "\(sarif.stdout)")
    }
}
