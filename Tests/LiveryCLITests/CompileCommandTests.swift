import Foundation
import Testing

/// `livery compile`, `inspect` and `dump` of compiled files, run as CI runs them.
@Suite struct CompileCommandTests {
    func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "livery-compile-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every command that takes `--traits` parses it in one place and says the same thing about
    /// a bad tag, listing every dimension of the table and every tag (so a dimension missing from
    /// the message fails here); two tags of one dimension are refused the same way.
    @Test func everyTraitsOptionGivesTheOneMessageFromTheTable() throws {
        let commands: [[String]] = [
            ["dump", "Themes/Dark.theme"], ["explain", "Themes/Dark.theme", "title_label"],
            ["diff", "Themes/Dark.theme", "Themes/Base.theme"],
            ["preview", "Themes/Dark.theme", "--output", "/dev/null"],
        ]
        var messages: Set<String> = []
        for command in commands {
            let run = try Livery.run(command + ["--traits", "ipad,tablet"])
            #expect(run.status != 0, "\(command)")
            #expect(run.stderr.contains("unknown trait 'tablet'; use idiom: iphone, ipad"), "\(command): \(run.stderr)")
            for dimension in ["idiom", "appearance", "contrast", "textSize", "direction"] {
                #expect(run.stderr.contains(dimension + ": "), "\(command) omits \(dimension)")
            }
            for tag in ["iphone", "vision", "light", "dark", "highcontrast", "largetext", "ltr", "rtl"] {
                #expect(run.stderr.contains(tag), "\(command) omits \(tag)")
            }
            messages.insert(
                run.stderr.split(separator: "\n").first { $0.contains("unknown trait") }.map(String.init) ?? "")
            let conflict = try Livery.run(command + ["--traits", "ltr,rtl"])
            #expect(conflict.stderr.contains("traits 'ltr' and 'rtl' are of one dimension"), "\(command)")
        }
        #expect(messages.count == 1, "\(messages)")
    }

    @Test func compilesAndDumpsLikeTheFolder() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/Dark.livery"
        let compile = try Livery.run(["compile", "Themes/Dark.theme", "--output", output, "--verify"])
        #expect(compile.status == 0, "\(compile.stderr)")
        #expect(
            compile.stdout
                == "verified: 288 trait sets read back value for value as the folder resolves them (every text scale), and every image picks the same file at scales 1-3\n"
        )
        #expect(compile.stderr.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Dark.livery"])
        for arguments in [
            ["--traits", "ipad,dark", "--scale", "2"], ["--traits", "tv,highcontrast"], [],
            ["--traits", "dark,largetext", "--text-scale", "2.5"],
        ] {
            let fromFolder = try Livery.run(["dump", "Themes/Dark.theme"] + arguments)
            let fromFile = try Livery.run(["dump", output] + arguments)
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromFile.stdout == fromFolder.stdout)
            #expect(fromFile.stdout.contains("\"id\": \"com.livery.dark\""))
        }
        let inspect = try Livery.run(["inspect", output, "--source", "Themes/Dark.theme"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("format 5.0"))
        #expect(inspect.stdout.contains("blocks: "))
        #expect(
            inspect.stdout.contains(
                "dimensions: idiom(iphone ipad tv mac watch car vision) appearance(light dark) contrast(highcontrast) textSize(largetext) direction(ltr rtl)"
            ))
        #expect(inspect.stdout.contains("com.livery.base 1.0.0  source sha256 "))
        #expect(inspect.stdout.contains("checksums: ok"))
        #expect(inspect.stdout.contains("up to date: yes"))
    }

    /// Strings that differ only in Unicode normalization (NFC "é", NFD "e" + U+0301) in constants,
    /// values and the theme's name: the compiled file keeps each spelling byte for byte, and the
    /// proof compares bytes (Swift's String == would call the two spellings equal). Ids and names
    /// are ASCII by the format; ids differing only in normalization are covered at the format level
    /// (NormalizationTests).
    @Test func normalizationIsKeptByteForByteAndProvenOnBytes() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let theme = "Tests/Fixtures/Normalization/Cafe.theme"
        let output = folder + "/Cafe.livery"
        let compile = try Livery.run(["compile", theme, "--output", output, "--verify"])
        #expect(compile.status == 0, "\(compile.stderr)")
        #expect(compile.stdout.hasPrefix("verified: "))
        let fromFolder = try Livery.run(["dump", theme])
        let fromFile = try Livery.run(["dump", output])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(Array(fromFile.stdout.utf8) == Array(fromFolder.stdout.utf8))
        let composed = Array("caf\u{E9}".utf8), decomposed = Array("cafe\u{301}".utf8)
        let dump = Array(fromFile.stdout.utf8)
        // Both spellings are in the dump as written: four values, and the theme's name.
        let value = Array("\"string\": \"".utf8)
        #expect(dump.ranges(of: value + composed + [0x22]).count == 2)
        #expect(dump.ranges(of: value + decomposed + [0x22]).count == 2)
        #expect(dump.firstRange(of: Array("\"name\": \"Caf\u{E9} Cafe\u{301}\"".utf8)) != nil)
        let build = try Livery.run(["build", "Tests/Fixtures/Normalization", "--output", folder + "/built"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains("identical"))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/built/Cafe.livery"))
                == Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test func writesNothingOnErrors() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let theme = folder + "/Broken.theme"
        try FileManager.default.createDirectory(atPath: theme, withIntermediateDirectories: true)
        try #"<theme-info id="b" name="B"/>"#.write(toFile: theme + "/Info.xml", atomically: true, encoding: .utf8)
        try
            #"<theme><instances><uiview id="v"><operation name="alpha"><param name="value"><float>NaN</float></param></operation></uiview></instances></theme>"#
            .write(toFile: theme + "/Chat.xml", atomically: true, encoding: .utf8)
        let run = try Livery.run(["compile", theme, "--output", folder + "/out.livery"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error:"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.livery"))
        #expect(try Livery.run(["compile", "Themes/Dark.theme"]).status == 64)
    }

    @Test func aDamagedFileIsNamedAndExitsOne() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/Dark.livery"
        #expect(try Livery.run(["compile", "Themes/Dark.theme", "-o", output]).status == 0)
        var bytes = try #require(FileManager.default.contents(atPath: output))
        let truncated = folder + "/truncated.livery"
        try bytes.prefix(bytes.count - 8).write(to: URL(fileURLWithPath: truncated))
        let dump = try Livery.run(["dump", truncated])
        #expect(dump.status == 1)
        #expect(dump.stdout.isEmpty)
        #expect(
            dump.stderr
                == "\(truncated): error: file is truncated: \(bytes.count - 8) bytes, expected \(bytes.count) [compiled-invalid]\n"
        )

        // a flipped byte inside a section passes the load-time checks but not the checksums
        // (the last bytes are block checksums: `BLKS` is the last section)
        bytes[bytes.count - 20] ^= 0xFF
        let flipped = folder + "/flipped.livery"
        try bytes.write(to: URL(fileURLWithPath: flipped))
        let inspect = try Livery.run(["inspect", flipped])
        #expect(inspect.status == 1)
        #expect(inspect.stdout.contains("checksums: FAILED: checksum mismatch in section 'BLKS'"))

        let garbage = folder + "/garbage.livery"
        try Data("not a theme at all, but long enough to hold a header of sixty-four bytes".utf8)
            .write(to: URL(fileURLWithPath: garbage))
        let run = try Livery.run(["inspect", garbage])
        #expect(run.status == 1)
        #expect(
            run.stderr == "\(garbage): error: not a compiled Livery theme (bad magic at offset 0) [compiled-invalid]\n")
    }
}
