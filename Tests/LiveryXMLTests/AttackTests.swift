import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// The attack matrix (docs/Security.md): hostile theme folders, each of which must be rejected with
/// a positioned error, without reading anything outside the theme folder.
///
/// Committed attacks live in `Tests/Fixtures/Attacks/<name>/`: the theme (`Attack.theme`, or a
/// folder of themes for attacks on chains and folders), any bait outside it, and `expected.txt`, the
/// error lines `cd <name> && livery validate <target>` must print (paths relative to the attack's
/// folder). Bait files outside the theme hold the word `SENTINEL_OUTSIDE_READ`: if the front end
/// read one, the word would show up in a diagnostic (as an unknown component, a theme id, an xml
/// error or an asset), so no diagnostic may contain it.
///
/// Attacks too big to commit (10 MB of text, depth 10,000...) are generated at run time into a
/// temporary folder (`generated` below). `Benchmarks/Scripts/attack-timings.sh` prints how long each takes
/// through the CLI; tests assert results, never times.
///
/// `LIVERY_UPDATE_ATTACKS=1 swift test --filter AttackTests` rewrites each `expected.txt` from what
/// the front end prints now (review the diff).
@Suite struct AttackTests {
    static let root: String = Fixture.root + "/Attacks"
    static let sentinel = "SENTINEL_OUTSIDE_READ"

    static let committed: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
        .filter { !$0.hasPrefix(".") }
        .filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        .sorted()

    /// What to validate inside an attack folder: `Attack.theme` if there is one, else `themes/`
    /// if there is one (attacks on folders of themes), else the folder itself.
    static func target(of folder: String) -> String {
        for candidate in ["Attack.theme", "themes"]
        where FileSystem.kind(of: folder + "/" + candidate) != .missing {
            return folder + "/" + candidate
        }
        return folder
    }

    /// Validates, and checks what every attack must satisfy: errors, each positioned, nothing read
    /// outside. Returns the error lines relative to `folder`.
    @discardableResult
    static func check(
        _ folder: String, limits: FrontEndLimits = .default, name: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [String] {
        let diagnostics = ThemeWorkspace(limits: limits).validate(paths: [target(of: folder)])
        let fixture = Fixture(kind: .invalid, code: name, path: folder)
        let errors = diagnostics.filter { $0.severity == .error }
        let lines = errors.map { fixture.relative($0.description) }
        #expect(!errors.isEmpty, "\(name): accepted; it must be rejected", sourceLocation: sourceLocation)
        for diagnostic in diagnostics {
            #expect(
                !diagnostic.description.contains(sentinel),
                "\(name): something outside the theme folder was read: \(diagnostic)", sourceLocation: sourceLocation)
        }
        for error in errors {
            guard let location = error.location else {
                Issue.record("\(name): an error without a location: \(error)", sourceLocation: sourceLocation)
                continue
            }
            #expect(
                location.file.hasPrefix(folder), "\(name): located outside the attack: \(error)",
                sourceLocation: sourceLocation)
            if !FixtureTests.fileLevelCodes.contains(error.code.rawValue) {
                #expect(
                    location.line != nil && location.column != nil, "\(name): no line and column: \(error)",
                    sourceLocation: sourceLocation)
            }
        }
        return lines
    }

    // MARK: - Committed attacks

    @Test(arguments: committed)
    func committedAttackIsRejectedWithAPositionedError(_ name: String) throws {
        let folder = Self.root + "/" + name
        let lines = Self.check(folder, name: name)
        let expectedPath = folder + "/expected.txt"
        if ProcessInfo.processInfo.environment["LIVERY_UPDATE_ATTACKS"] != nil {
            let header =
                (try? String(contentsOfFile: expectedPath, encoding: .utf8))?
                .split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix("#") } ?? []
            try ((header.map(String.init) + lines).joined(separator: "\n") + "\n").write(
                toFile: expectedPath, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(!expected.isEmpty, "\(name)/expected.txt lists no error")
        for line in expected {
            #expect(lines.contains(line), "\(name): missing \(line)\nprinted:\n\(lines.joined(separator: "\n"))")
        }
        for line in lines where !expected.contains(line) {
            Issue.record("\(name): unexpected \(line)")
        }
    }

    @Test func everyAttackFolderHasExpectations() {
        #expect(Self.committed.count >= 40)
        for name in Self.committed {
            #expect(
                FileManager.default.fileExists(atPath: Self.root + "/" + name + "/expected.txt"),
                "\(name) has no expected.txt")
        }
    }

    /// The bait is really there: each attack that relies on a sentinel file would see it if it
    /// followed the link or path (so the absence of the word above proves something).
    @Test func baitFilesExistAndHoldTheSentinel() throws {
        var baits = 0
        for name in Self.committed {
            let folder = Self.root + "/" + name
            guard let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] else { continue }
            for file in files where file != "expected.txt" {
                let first = file.split(separator: "/").first.map(String.init) ?? file
                if first.hasSuffix(".theme") || first == "themes"
                    || file.split(separator: "/").last?.hasPrefix(".") == true
                {
                    continue
                }
                let path = folder + "/" + file
                guard FileSystem.kind(of: path) == .file else { continue }
                let text = try String(contentsOfFile: path, encoding: .utf8)
                #expect(text.contains(Self.sentinel), "\(name)/\(file) is bait without the sentinel")
                baits += 1
            }
        }
        #expect(baits >= 8)
    }

    // MARK: - Generated attacks

    /// An attack written at run time: files relative to a fresh folder, and the code and position
    /// (`line:column`) of the error it must produce.
    struct Generated: Sendable, CustomTestStringConvertible {
        var name: String
        var files: @Sendable () -> [String: [UInt8]]
        var code: DiagnosticCode
        /// `Attack.theme/Chat.xml:1:33`, say; nil to accept any position of that code.
        var position: String?
        var testDescription: String { name }
    }

    static let info = Array(#"<theme-info id="attack.theme" name="Attack"/>"#.utf8)

    static func chat(_ text: String) -> [String: [UInt8]] {
        ["Attack.theme/Info.xml": info, "Attack.theme/Chat.xml": Array(text.utf8)]
    }

    static func label(_ string: String) -> String {
        #"<theme><instances><uilabel id="l"><operation name="text"><param name="text"><string>"# + string
            + "</string></param></operation></uilabel></instances></theme>"
    }

    static let generated: [Generated] = [
        Generated(
            name: "depth 10,000",
            files: {
                chat(
                    "<theme>" + String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
                        + "</theme>")
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:\(8 + 31 * 3)"),
        Generated(
            name: "depth 10,000 of arrays",
            files: {
                chat(
                    #"<theme><constants>"# + String(repeating: "<array>", count: 10_000)
                        + String(repeating: "</array>", count: 10_000)
                        + "</constants></theme>")
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:\(19 + 30 * 7)"),
        Generated(
            name: "a 50 KB element name",
            files: {
                chat(
                    "<theme><instances><" + String(repeating: "u", count: 50 * 1024) + #" id="x"/></instances></theme>"#
                )
            }, code: .xmlSyntax, position: nil),
        Generated(
            name: "a 40 KB element name (under libxml2's limit)",
            files: {
                chat(
                    "<theme><instances><" + String(repeating: "u", count: 40 * 1024) + #" id="x"/></instances></theme>"#
                )
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:19"),
        Generated(
            name: "a 50 KB attribute name",
            files: {
                chat(
                    #"<theme><instances><uiview "# + String(repeating: "i", count: 50 * 1024)
                        + #"="x"/></instances></theme>"#)
            }, code: .xmlSyntax, position: nil),
        Generated(
            name: "a 40 KB attribute name",
            files: {
                chat(
                    #"<theme><instances><uiview "# + String(repeating: "i", count: 40 * 1024)
                        + #"="x"/></instances></theme>"#)
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:19"),
        Generated(
            name: "a 50 KB id",
            files: {
                chat(
                    #"<theme><instances><uiview id=""# + String(repeating: "i", count: 50 * 1024)
                        + #""/></instances></theme>"#)
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:19"),
        Generated(
            name: "a 50 KB theme id in Info.xml",
            files: {
                [
                    "Attack.theme/Info.xml": Array(
                        ("<theme-info id=\"" + String(repeating: "a", count: 50 * 1024) + "\" name=\"x\"/>").utf8),
                    "Attack.theme/Chat.xml": Array("<theme/>".utf8),
                ]
            }, code: .limitExceeded, position: "Attack.theme/Info.xml:1:1"),
        Generated(
            name: "a 10 MB text node",
            files: {
                chat(label(String(repeating: "x", count: 10 << 20)))
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:77"),
        Generated(
            name: "10 MB of character references",
            files: {
                chat(label(String(repeating: "&#x41;", count: (10 << 20) / 6)))
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:77"),
        // libxml2 reads a CDATA section whole before reporting it, up to its own cap of 10,000,000 bytes.
        Generated(
            name: "a 10 MB CDATA section",
            files: {
                chat(label("<![CDATA[" + String(repeating: "x", count: 10 << 20) + "]]>"))
            }, code: .xmlSyntax, position: nil),
        Generated(
            name: "a 5 MB CDATA section",
            files: {
                chat(label("<![CDATA[" + String(repeating: "x", count: 5 << 20) + "]]>"))
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:77"),
        Generated(
            name: "100,000 attributes on one element (quadratic in libxml2 2.9)",
            files: {
                chat("<theme " + (0..<100_000).map { "a\($0)=\"\"" }.joined(separator: " ") + "/>")
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:1"),
        Generated(
            name: "100,000 duplicate attributes",
            files: {
                chat("<theme " + String(repeating: #"a="" "#, count: 100_000) + "/>")
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:1"),
        Generated(
            name: "an array of 100,000 elements",
            files: {
                chat(
                    #"<theme><constants><array name="a">"# + String(repeating: "<bool>true</bool>", count: 100_000)
                        + "</array></constants></theme>")
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:\(35 + 10_000 * 17)"),
        Generated(
            name: "an instance with 100,000 operations",
            files: {
                chat(
                    #"<theme><instances><uiview id="v">"#
                        + String(
                            repeating:
                                #"<operation name="alpha"><param name="value"><float>1</float></param></operation>"#,
                            count: 100_000)
                        + "</uiview></instances></theme>")
            }, code: .limitExceeded, position: "Attack.theme/Chat.xml:1:\(34 + 1_000 * 80)"),
        // Found while building this matrix: each link was a nested call, and 20,000 overflowed the stack.
        Generated(
            name: "a chain of 20,000 constants",
            files: {
                chat(
                    "<theme><constants>\n"
                        + (0..<20_000).map { #"<float name="k\#($0)" ref="k\#($0 + 1)"/>"# }.joined(separator: "\n")
                        + #"<float name="k20000">1</float></constants><instances><uiview id="v"><operation name="alpha"><param name="value"><float ref="k0"/></param></operation></uiview></instances></theme>"#
                )
            }, code: .limitExceeded, position: nil),
        Generated(
            name: "a chain of 20,000 classes",
            files: {
                chat(
                    "<theme><classes>\n"
                        + (0..<20_000).map { #"<class name="c\#($0)" class="c\#($0 + 1)"/>"# }.joined(separator: "\n")
                        + #"<class name="c20000"/></classes><instances><uiview id="v" class="c0"/></instances></theme>"#
                )
            }, code: .limitExceeded, position: nil),
        // Suggestions ("did you mean") compare an unknown name with every candidate: 10,000 x 10,000
        // edit distances would take minutes, so past 200 candidates none is made, and a theme gets at most 200 hints.
        Generated(
            name: "10,000 unknown references among 10,000 constants",
            files: {
                chat(
                    "<theme><constants>" + (0..<10_000).map { #"<float name="constant\#($0)">1</float>"# }.joined()
                        + "</constants><instances>\n"
                        + (0..<10_000).map {
                            #"<uiview id="v\#($0)"><operation name="alpha"><param name="value"><float ref="unknown\#($0)"/></param></operation></uiview>"#
                        }.joined(separator: "\n") + "</instances></theme>")
            }, code: .referenceUnknown, position: nil),
        Generated(
            name: "a 64 MB file",
            files: {
                chat(label(String(repeating: "x", count: 64 << 20)))
            }, code: .fileUnreadable, position: "Attack.theme/Chat.xml"),
        Generated(
            name: "10,001 files in a theme folder",
            files: {
                var files = chat("<theme/>")
                for index in 0..<10_001 { files["Attack.theme/f\(index).txt"] = [] }
                return files
            }, code: .fileIgnored, position: "Attack.theme"),
    ]

    @Test(arguments: generated)
    func generatedAttackIsRejectedWithAPositionedError(_ attack: Generated) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-attack-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (relative, bytes) in attack.files() {
            let url = URL(fileURLWithPath: folder + "/" + relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let lines = Self.check(folder, name: attack.name)
        let matching = lines.filter { $0.hasSuffix("[\(attack.code.rawValue)]") }
        #expect(
            !matching.isEmpty,
            "\(attack.name): no [\(attack.code.rawValue)] error in:\n\(lines.joined(separator: "\n"))")
        if let position = attack.position {
            #expect(
                matching.contains { $0.hasPrefix(position + ": ") },
                "\(attack.name): not at \(position):\n\(lines.joined(separator: "\n"))")
        }
    }
}
