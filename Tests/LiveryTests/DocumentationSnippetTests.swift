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
            let bubbleView = AppComponent()
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-snippets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
            "-module-cache-path", folder.appendingPathComponent("cache").path, file.path,
        ]
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

    /// The UIKit example of docs/Runtime.md is under `#if canImport(UIKit)`, so the check above
    /// skips it here. This one type-checks it on Linux: the condition and `import UIKit` are
    /// dropped, and `UIKitStandIn.source` declares the UIKit names it uses (only their shapes), so
    /// every Livery call in it is checked against the built modules.
    @Test func theUIKitExampleTypeChecksAgainstAStandIn() throws {
        let markdown = try String(
            contentsOf: Self.repository.appendingPathComponent("docs/Runtime.md"), encoding: .utf8)
        let block = try #require(
            UIKitStandIn.example(in: markdown), "docs/Runtime.md has no #if canImport(UIKit) block")
        #expect(block.contains("UIKitBindings"))
        let program = "import Foundation\nimport Livery\n" + UIKitStandIn.source + block
        let failure = try Self.typecheck(program, name: "docs/Runtime.md (UIKit example)")
        #expect(failure == nil, "\(failure ?? "")")
        // The stand-in does not hide mistakes: a call Livery does not have fails.
        let broken = program.replacingOccurrences(
            of: "Applicator(manager: manager, bindings: UIKitBindings.register(in:))",
            with: "Applicator(manager: manager, registerStandardBindings: false)")
        #expect(broken != program)
        #expect(try Self.typecheck(broken, name: "broken") != nil)
    }

    /// The check itself: a block that misuses the API fails it.
    @Test func aBrokenSnippetFails() throws {
        let broken = Snippets.program(from: "```swift\nlet manager = ThemeManager(configurationFile: 42)\n```\n")
        #expect(try Self.typecheck(broken.source, name: "broken") != nil)
        let fine = Snippets.program(
            from: "```swift\nlet manager = ThemeManager(configurationFile: \"Livery.xml\")\n```\n")
        #expect(try Self.typecheck(fine.source, name: "fine") == nil)
    }
}

/// The UIKit names docs/Runtime.md's UIKit example uses, declared with their UIKit shapes and no
/// behaviour, so that the example type-checks where UIKit does not exist.
enum UIKitStandIn {
    /// The example's Swift, without its `#if canImport(UIKit)` / `#endif` and `import UIKit` lines.
    static func example(in markdown: String) -> String? {
        var lines: [Substring] = []
        var inBlock = false
        var found = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inBlock, line.hasPrefix("```swift") {
                inBlock = true
                lines = []
                continue
            }
            if inBlock, line.hasPrefix("```") {
                inBlock = false
                if found { break }
                continue
            }
            guard inBlock else { continue }
            if line == "#if canImport(UIKit)" {
                found = true
                continue
            }
            if found,
                line == "#endif" || line == "import UIKit" || line == "import Livery" || line == "import LiveryModel"
            {
                continue
            }
            lines.append(line)
        }
        return found ? lines.joined(separator: "\n") + "\n" : nil
    }

    static let source = """
        final class CGColor {}
        final class UIImage: @unchecked Sendable { init?(data: Data, scale: CGFloat) {} }  // Sendable in UIKit too
        final class UIColor {
            init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {}
            init(cgColor: CGColor) {}
            var cgColor: CGColor { CGColor() }
            func getRed(_ red: inout CGFloat, green: inout CGFloat, blue: inout CGFloat, alpha: inout CGFloat) -> Bool { true }
        }
        final class UIFontDescriptor {
            struct AttributeName: Hashable { static let family = AttributeName(), traits = AttributeName() }
            struct TraitKey: Hashable { static let weight = TraitKey() }
            init(fontAttributes: [AttributeName: Any]) {}
            func addingAttributes(_ attributes: [AttributeName: Any]) -> UIFontDescriptor { self }
        }
        final class UIFont {
            struct Weight: Hashable {
                static let ultraLight = Weight(), thin = Weight(), light = Weight(), regular = Weight(), medium = Weight()
                static let semibold = Weight(), bold = Weight(), heavy = Weight(), black = Weight()
            }
            static var systemFontSize: CGFloat { 17 }
            static var buttonFontSize: CGFloat { 18 }
            init(descriptor: UIFontDescriptor, size: CGFloat) {}
            static func systemFont(ofSize size: CGFloat) -> UIFont { UIFont(descriptor: UIFontDescriptor(fontAttributes: [:]), size: size) }
        }
        enum NSTextAlignment: Int { case left, center, right, justified, natural }
        final class CALayer {
            var cornerRadius: CGFloat = 0, borderWidth: CGFloat = 0, shadowRadius: CGFloat = 0
            var borderColor: CGColor?, shadowColor: CGColor?
            var shadowOpacity: Float = 0
            var shadowOffset = CGSize.zero
        }
        @MainActor class UIView {
            var frame = CGRect.zero
            var backgroundColor: UIColor?
            let layer = CALayer()
            var alpha: CGFloat = 1
            var isHidden = false
            var tintColor: UIColor!
            var clipsToBounds = false
        }
        @MainActor class UIControl: UIView {
            struct State: OptionSet, Hashable {
                let rawValue: UInt
                static let normal = State([]), highlighted = State(rawValue: 1), disabled = State(rawValue: 2)
                static let selected = State(rawValue: 4), focused = State(rawValue: 8)
            }
        }
        @MainActor class UILabel: UIView {
            var textColor: UIColor!
            var font: UIFont!
            var textAlignment = NSTextAlignment.natural
            var numberOfLines = 1
            var text: String?
        }
        @MainActor class UIButton: UIControl {
            var titleLabel: UILabel?
            func titleColor(for state: State) -> UIColor? { nil }
            func setTitleColor(_ color: UIColor?, for state: State) {}
            func title(for state: State) -> String? { nil }
            func setTitle(_ title: String?, for state: State) {}
            func setImage(_ image: UIImage?, for state: State) {}
            func setBackgroundImage(_ image: UIImage?, for state: State) {}
        }
        @MainActor class UIImageView: UIView { var image: UIImage? }
        @MainActor class UISwitch: UIControl { var onTintColor: UIColor?, thumbTintColor: UIColor? }
        @MainActor class UINavigationBar: UIView { var barTintColor: UIColor?, isTranslucent = true }

        """
}
