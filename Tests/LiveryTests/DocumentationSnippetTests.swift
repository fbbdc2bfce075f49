import Foundation
import Testing

/// Every ```swift block of README.md and docs/Runtime.md type-checks against the built modules,
/// with `import Livery` as the only import unless a block imports more itself (blocks that use
/// the headless components or the development module import `LiveryHeadless` or
/// `LiveryDevelopment`, and say so). The blocks of one document run in order in one file, so a
/// later block may use what an earlier one declared (`manager`, `applicator`). The only names
/// supplied from outside are the app's own objects the snippets style (`Snippets.prelude`).
@Suite(.serialized) struct DocumentationSnippetTests {
    enum Snippets {
        /// The app's own components, which the documents style but do not declare, and a
        /// stand-in for UIKit's `UIImage` where UIKit is missing (the snippets check Livery's API,
        /// not UIKit's).
        static let prelude = """
        final class AppComponent {}
        let titleLabel = AppComponent(), sendButton = AppComponent()
        let bannerLabel = AppComponent(), mediaPlayerView = AppComponent()
        #if !canImport(UIKit)
        struct UIImage: Sendable { init?(data: Data, scale: CGFloat) {} }
        #endif

        """

        /// The blocks' imports first (plus Livery and Foundation), then the prelude, then every
        /// block in document order.
        static func program(from markdown: String) -> (source: String, blocks: Int) {
            var imports: [String] = ["import Foundation", "import Livery"]
            var body: [String] = []
            var inBlock = false
            var blocks = 0
            // Imports under `#if` (UIKit) stay where they are, inside their condition.
            var conditions = 0
            for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
                if inBlock, line.hasPrefix("#if") { conditions += 1 }
                if inBlock, line.hasPrefix("#endif") { conditions -= 1 }
                if !inBlock, line.hasPrefix("```swift") {
                    inBlock = true
                    blocks += 1
                    body.append("// block \(blocks)")
                } else if inBlock, line.hasPrefix("```") {
                    inBlock = false
                } else if inBlock, conditions == 0, line.hasPrefix("import ") {
                    if !imports.contains(String(line)) { imports.append(String(line)) }
                } else if inBlock {
                    body.append(String(line))
                }
            }
            return (imports.joined(separator: "\n") + "\n" + prelude + body.joined(separator: "\n") + "\n", blocks)
        }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Where SwiftPM put the modules of this build: beside the test bundle.
    static var modules: URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Livery.swiftmodule").path) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Runs `swiftc -typecheck` on `source` as a main file; returns the compiler's output when
    /// it fails, nil when it passes.
    static func typecheck(_ source: String, name: String) throws -> String? {
        let modules = try #require(modules, "the built modules are not beside \(CommandLine.arguments[0])")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-snippets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
                             "-module-cache-path", folder.appendingPathComponent("cache").path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "\(name):\n\(text)\n--- the program checked ---\n\(source)"
    }

    @Test(arguments: ["README.md", "docs/Runtime.md"])
    func swiftBlocksTypeCheckWithImportLivery(_ document: String) throws {
        let markdown = try String(contentsOf: Self.repository.appendingPathComponent(document), encoding: .utf8)
        let program = Snippets.program(from: markdown)
        #expect(program.blocks > 0, "\(document) has no swift blocks")
        let failure = try Self.typecheck(program.source, name: document)
        #expect(failure == nil, "\(failure ?? "")")
    }

    /// The check itself: a block that misuses the API fails it.
    @Test func aBrokenSnippetFails() throws {
        let broken = Snippets.program(from: "```swift\nlet manager = ThemeManager(configurationFile: 42)\n```\n")
        #expect(try Self.typecheck(broken.source, name: "broken") != nil)
        let fine = Snippets.program(from: "```swift\nlet manager = ThemeManager(configurationFile: \"Livery.xml\")\n```\n")
        #expect(try Self.typecheck(fine.source, name: "fine") == nil)
    }
}
