import Foundation
import Testing

@Suite struct BuildCommandTests {
    @Test func buildsEverySampleThemeAndProvesTheDumps() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("livery-build-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try Livery.run(["build", "Themes", "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.contains("5 themes: 5 compiled, 0 up to date, 0 failed"))
        #expect(run.stdout.components(separatedBy: "identical").count == 6)
        for name in ["Base", "Light", "Dark", "HighContrast"] {
            let file = output + "/\(name).livery"
            #expect(FileManager.default.fileExists(atPath: file))
            let dump = try Livery.run(["dump", file, "--traits", "ipad,dark", "--scale", "2"])
            let source = try Livery.run(["dump", "Themes/\(name).theme", "--traits", "ipad,dark", "--scale", "2"])
            #expect(dump.status == 0 && dump.stdout == source.stdout)
        }
    }

    @Test func writesNothingForABrokenThemeButBuildsTheOthers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-build-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, body) in [
            ("Good", "<theme/>"), ("Bad", "<theme><constants><float name=\"x\">NaN</float></constants></theme>"),
        ] {
            let theme = folder.appendingPathComponent("\(name).theme")
            try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
            try Data("<theme-info id=\"\(name.lowercased())\" name=\"\(name)\"/>".utf8).write(
                to: theme.appendingPathComponent("Info.xml"))
            try Data(body.utf8).write(to: theme.appendingPathComponent("A.xml"))
        }
        let output = folder.appendingPathComponent("out").path
        let run = try Livery.run(["build", folder.path, "--output", output])
        #expect(run.status == 1)
        #expect(run.stderr.contains("Bad.theme/A.xml:1:35: error:"))
        #expect(FileManager.default.fileExists(atPath: output + "/Good.livery"))
        #expect(!FileManager.default.fileExists(atPath: output + "/Bad.livery"))
        #expect(run.stdout.contains("2 themes: 1 compiled, 0 up to date, 1 failed"))
    }
}
