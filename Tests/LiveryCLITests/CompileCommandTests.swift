import Foundation
import Testing

/// `livery compile`, `inspect` and `dump` of compiled files, run as CI runs them.
@Suite struct CompileCommandTests {
    func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "livery-compile-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func compilesAndDumpsLikeTheFolder() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/Dark.livery"
        let compile = try Livery.run(["compile", "Themes/Dark.theme", "--output", output, "--verify"])
        #expect(compile.status == 0, "\(compile.stderr)")
        #expect(compile.stdout == "verified: 96 trait sets x 3 scales and 3 text scales dump identically from the folder and the compiled file\n")
        #expect(compile.stderr.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Dark.livery"])
        for arguments in [["--traits", "ipad,dark", "--scale", "2"], ["--traits", "tv,highcontrast"], [],
                          ["--traits", "dark,largetext", "--text-scale", "2.5"]] {
            let fromFolder = try Livery.run(["dump", "Themes/Dark.theme"] + arguments)
            let fromFile = try Livery.run(["dump", output] + arguments)
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromFile.stdout == fromFolder.stdout)
            #expect(fromFile.stdout.contains("\"id\": \"com.livery.dark\""))
        }
        let inspect = try Livery.run(["inspect", output, "--source", "Themes/Dark.theme"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("format 2.0"))
        #expect(inspect.stdout.contains("com.livery.base 1.0.0  source sha256 "))
        #expect(inspect.stdout.contains("checksums: ok"))
        #expect(inspect.stdout.contains("up to date: yes"))
    }

    @Test func writesNothingOnErrors() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let theme = folder + "/Broken.theme"
        try FileManager.default.createDirectory(atPath: theme, withIntermediateDirectories: true)
        try #"<theme-info id="b" name="B"/>"#.write(toFile: theme + "/Info.xml", atomically: true, encoding: .utf8)
        try #"<theme><instances><uiview id="v"><operation name="alpha"><param name="value"><float>NaN</float></param></operation></uiview></instances></theme>"#
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
        #expect(dump.stderr == "\(truncated): error: file is truncated: \(bytes.count - 8) bytes, expected \(bytes.count) [compiled-invalid]\n")

        // a flipped byte inside a section passes the load-time checks but not the checksums
        bytes[bytes.count - 20] ^= 0xFF
        let flipped = folder + "/flipped.livery"
        try bytes.write(to: URL(fileURLWithPath: flipped))
        let inspect = try Livery.run(["inspect", flipped])
        #expect(inspect.status == 1)
        #expect(inspect.stdout.contains("checksums: FAILED: checksum mismatch in section 'DATA'"))

        let garbage = folder + "/garbage.livery"
        try Data("not a theme at all, but long enough to hold a header of sixty-four bytes".utf8)
            .write(to: URL(fileURLWithPath: garbage))
        let run = try Livery.run(["inspect", garbage])
        #expect(run.status == 1)
        #expect(run.stderr == "\(garbage): error: not a compiled Livery theme (bad magic at offset 0) [compiled-invalid]\n")
    }
}
