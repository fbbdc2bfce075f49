import Foundation
import Testing

/// `livery compile` on every theme of the attack matrix (`Tests/Fixtures/Attacks`, see
/// docs/Security.md): it must fail with a located error and write nothing. A compiled file already
/// at the output path stays byte for byte what it was, no temporary file is left beside it, a
/// missing output stays missing, and nothing in or around the theme folder changes.
@Suite struct AttackCompileTests {
    static let attacks: String = Livery.root + "/Tests/Fixtures/Attacks"

    static let themes: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: attacks)) ?? [])
        .filter {
            FileManager.default.fileExists(atPath: attacks + "/" + $0 + "/Attack.theme/Info.xml")
                || (try? FileManager.default.destinationOfSymbolicLink(
                    atPath: attacks + "/" + $0 + "/Attack.theme/Info.xml")) != nil
        }
        .sorted()

    /// Every path under `folder` with its size and modification time, links not followed.
    static func snapshot(_ folder: String) -> [String: String] {
        var result: [String: String] = [:]
        for path in FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [] {
            let attributes = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + path)) ?? [:]
            result[path] = "\(attributes[.size] ?? "-") \(attributes[.modificationDate] ?? "-")"
        }
        return result
    }

    @Test(arguments: themes)
    func compilingAnAttackWritesNothing(_ name: String) throws {
        let output = NSTemporaryDirectory() + "livery-attack-out-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let previous = Array("a compiled file from an earlier, good version".utf8)
        try Data(previous).write(to: URL(fileURLWithPath: output + "/existing.livery"))
        let folder = Self.attacks + "/" + name
        let before = Self.snapshot(folder)

        let replace = try Livery.run(["compile", "Attack.theme", "--output", output + "/existing.livery"], in: folder)
        #expect(replace.status == 1, "\(name): exit \(replace.status)\n\(replace.stderr)")
        #expect(replace.stderr.contains(": error: "), "\(name): no error printed")
        #expect(!replace.stderr.contains("SENTINEL"), "\(name): read outside the theme: \(replace.stderr)")
        let after = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output + "/existing.livery")))
        #expect(after == previous, "\(name): the existing compiled file changed")

        let fresh = try Livery.run(["compile", "Attack.theme", "--output", output + "/new.livery"], in: folder)
        #expect(fresh.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output + "/new.livery"), "\(name): a file was written")
        let left = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(left == ["existing.livery"], "\(name): left behind: \(left)")
        #expect(Self.snapshot(folder) == before, "\(name): the attack folder changed")
    }

    @Test func theMatrixHasThemesToCompile() {
        #expect(Self.themes.count >= 40)
    }
}
