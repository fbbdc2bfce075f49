import Foundation
import LiveryBinary
import LiveryXML
import Testing

@testable import LiveryCompiler

/// The cheap staleness check: sizes and modification times first, digests only when they differ.
@Suite struct SourceStampTests {
    /// A copy of the sample themes with `Dark.livery` compiled beside `Dark.theme`, every file
    /// dated a minute ago (a stamp is not recorded for files modified in the last two seconds).
    static func compiledCopy() throws -> (root: String, compiled: String, workspace: () -> ThemeWorkspace) {
        let root = try Repository.temporaryFolder()
        for name in ["Base.theme", "Dark.theme"] {
            try FileManager.default.copyItem(atPath: Repository.root + "/Themes/" + name, toPath: root + "/" + name)
        }
        let workspace = { ThemeWorkspace(searchPaths: [root]) }
        let bytes = try #require(ThemeCompiler.compile(themeAt: root + "/Dark.theme", workspace: workspace()).value)
        let compiled = root + "/Dark.livery"
        try ThemeCompiler.writeAtomically(bytes, to: compiled)
        let minuteAgo = Date(timeIntervalSinceNow: -60)
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let entry = enumerator?.nextObject() as? String {
            try FileManager.default.setAttributes([.modificationDate: minuteAgo], ofItemAtPath: root + "/" + entry)
        }
        return (root, compiled, workspace)
    }

    static func staleness(_ compiled: String, _ root: String, _ workspace: ThemeWorkspace) throws -> String? {
        ThemeCompiler.staleness(
            of: try CompiledTheme(contentsOf: compiled), themeAt: root + "/Dark.theme", workspace: workspace)
    }

    @Test func theStampAnswersWithoutReadingTheSources() throws {
        let (root, compiled, workspace) = try Self.compiledCopy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stamp = compiled + ".sources"
        #expect(!FileManager.default.fileExists(atPath: stamp))
        #expect(try Self.staleness(compiled, root, workspace()) == nil)  // digests compared, stamp recorded
        #expect(FileManager.default.fileExists(atPath: stamp))

        // Same size, same modification time, other bytes: only a check that reads the file can
        // tell, and the stamp's answer (up to date) shows that nothing was read. This is the
        // trade every build tool makes (make, git's index): an edit changes the time.
        let palette = root + "/Dark.theme/Palette.xml"
        let date = try #require(try FileManager.default.attributesOfItem(atPath: palette)[.modificationDate] as? Date)
        var text = try String(contentsOfFile: palette, encoding: .utf8)
        let hex = try #require(text.range(of: "#[0-9A-F]{6}", options: .regularExpression))
        text.replaceSubrange(hex, with: "#123456")
        try text.write(toFile: palette, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: palette)
        #expect(try Self.staleness(compiled, root, workspace()) == nil)

        // The edit's own modification time: the stamp no longer vouches, the digests tell.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -30)], ofItemAtPath: palette)
        let stale = try Self.staleness(compiled, root, workspace())
        #expect(stale?.contains("com.livery.dark") == true, "\(stale ?? "nil")")
    }

    @Test(arguments: ["added", "removed", "parent", "sibling"])
    func anyChangeOfTheFilesFallsBackToTheDigests(_ change: String) throws {
        let (root, compiled, workspace) = try Self.compiledCopy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try Self.staleness(compiled, root, workspace()) == nil)
        let stamp = compiled + ".sources"
        let recorded = try #require(FileManager.default.contents(atPath: stamp))
        switch change {
        case "added":  // a new qualified file changes the theme's meaning
            try Data("<theme/>".utf8).write(to: URL(fileURLWithPath: root + "/Dark.theme/Extra~ipad.xml"))
        case "removed":
            try FileManager.default.removeItem(atPath: root + "/Dark.theme/Classes.xml")
        case "parent":
            try Data("<!-- -->".utf8).write(
                to: URL(fileURLWithPath: root + "/Base.theme/Constants.xml"), options: .atomic)
        default:  // a new theme folder where parents are looked up
            try FileManager.default.createDirectory(atPath: root + "/Other.theme", withIntermediateDirectories: true)
        }
        // Whatever the digests then say, the stamp was not trusted: it is rewritten or left, but
        // the answer came from the full check (a changed source is reported stale).
        let answer = try Self.staleness(compiled, root, workspace())
        if change == "sibling" {
            #expect(answer == nil)  // the chain is unchanged; the new listing is recorded once files are old enough
        } else {
            #expect(answer != nil, "\(change)")
        }
        #expect(FileManager.default.contents(atPath: stamp) == recorded || change == "sibling")
    }
}
