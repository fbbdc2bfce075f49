import Foundation
import LiveryModel
import Testing

/// Guards on the sources that keep "adding a value type is one entry" true; they read the package's
/// Swift files as text.
///
/// What they prove, and what they do not: `ValueType` is a closed enum, so a test target cannot add
/// a case and watch the build fail; `ValueTypeDescriptorTests` takes every existing case through the
/// pipeline instead. These tests check the two conditions under which a new case would stop the
/// build everywhere it must be answered for: (1) every `switch` that lists the value types case by
/// case (one naming `.point`, `.rect` and `.insets` among its own cases, whether it switches over
/// `ValueType`, `Value` or the compiled `ValueTag`) has no `default:`, so a new case fails to compile
/// there; and (2) no source compares a type or element name with a string literal
/// (`type == "color"`, `element.name == "font"`): such code would neither compile-fail nor read
/// the descriptor. A switch that names only some types behind a `default:` is not caught by (1);
/// the descriptor and docs/Design.md's table are where such places are meant to go.
@Suite struct ValueTypeSourceTests {
    /// The package's root, from this file's path (Tests/LiveryToolingTests/ThisFile.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Swift file under Sources, as (path relative to the root, text).
    static func sources() throws -> [(path: String, text: String)] {
        let sources = root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var files: [(String, String)] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            files.append(("Sources/" + relative, text))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// `text` with comments removed and every string literal emptied (`""`), so that braces and
    /// `switch` inside strings (the studio page's JavaScript) do not count. Lines are kept.
    static func code(_ text: String) -> String {
        let characters = Array(text)
        var out: [Character] = []
        var index = 0
        func at(_ prefix: String) -> Bool {
            let prefix = Array(prefix)
            return index + prefix.count <= characters.count
                && Array(characters[index..<index + prefix.count]) == prefix
        }
        while index < characters.count {
            if at("//") {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if at("\"\"\"") {
                index += 3
                while index < characters.count, !at("\"\"\"") {
                    if characters[index] == "\n" { out.append("\n") }
                    index += 1
                }
                index += 3
                out += ["\"", "\""]
            } else if characters[index] == "\"" {
                index += 1
                while index < characters.count, characters[index] != "\"", characters[index] != "\n" {
                    index += characters[index] == "\\" ? 2 : 1
                }
                index += 1
                out += ["\"", "\""]
            } else {
                out.append(characters[index])
                index += 1
            }
        }
        return String(out)
    }

    /// A `switch` found in a file: its line, its own case labels (nested blocks left out) and
    /// whether it has a `default:`.
    struct Switch {
        var line: Int
        var labels: [String]
        var hasDefault: Bool { labels.contains("default") }
    }

    static func switches(in code: String) -> [Switch] {
        let characters = Array(code)
        var found: [Switch] = []
        for match in code.matches(of: #/\bswitch\b[^{]*\{/#) {
            var index = code.distance(from: code.startIndex, to: match.range.upperBound)
            var depth = 1
            var own = ""
            while index < characters.count, depth > 0 {
                let character = characters[index]
                if character == "{" {
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                } else if depth == 1 {
                    own.append(character)
                }
                index += 1
            }
            let labels = own.matches(of: #/(?m)^\s*(case\b[^:\n]*|default)\s*:/#).map {
                String($0.output.1).trimmingCharacters(in: .whitespaces)
            }
            let line = code[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1
            found.append(Switch(line: line, labels: labels))
        }
        return found
    }

    /// Whether the switch lists value types case by case.
    static func listsValueTypes(_ labels: [String]) -> Bool {
        let cases = labels.joined(separator: " ")
        return [#/\.point\b/#, #/\.rect\b/#, #/\.insets\b/#].allSatisfy { cases.contains($0) }
    }

    @Test func noSwitchOverTheValueTypesHidesBehindDefault() throws {
        var listing: [String] = []
        for file in try Self.sources() {
            for found in Self.switches(in: Self.code(file.text)) where Self.listsValueTypes(found.labels) {
                listing.append(file.path)
                #expect(
                    !found.hasDefault,
                    "\(file.path):\(found.line) lists the value types with a default: a new type would not be asked for there"
                )
            }
        }
        // The scan finds the places docs/Design.md names (a broken scan would find none and pass).
        for expected in [
            "Sources/LiveryModel/ValueTypeDescriptor.swift", "Sources/LiveryModel/CanonicalJSON.swift",
            "Sources/LiveryModel/ValueText.swift", "Sources/LiveryXML/Decoding/TypedObjectDecoder.swift",
            "Sources/LiveryXML/API/ConstantOverrides.swift", "Sources/LiveryBinary/Codes.swift",
            "Sources/LiveryBinary/EncoderState+Values.swift", "Sources/LiveryBinary/CompiledTheme+Instances.swift",
            "Sources/LiveryBinary/Verifier+Records.swift", "Sources/LiveryTokens/TokenExporter.swift",
            "Sources/LiveryTooling/PreviewPage.swift", "Sources/LiveryStudio/StudioSession+Explain.swift",
            "Sources/LiveryModel/ByteExact.swift",
        ] {
            #expect(listing.contains(expected), "no switch over the value types found in \(expected)")
        }
    }

    @Test func noSourceComparesATypeNameAsAString() throws {
        let names = ValueType.allCases.map(\.descriptor.elementName).joined(separator: "|")
        // Simple word boundaries: `scan.elements[i].name` has one at `elements`.
        let subject = #"(\b\w*[tT]ype\w*|\belementName|\belement\.name|\belements\[\w*\]\.name|\$0\.name)"#
        let comparison = try Regex(#"\#(subject)\s*(==|!=)\s*"(\#(names))"|"(\#(names))"\s*(==|!=)"#)
            .wordBoundaryKind(.simple)
        for file in try Self.sources() where file.path != "Sources/LiveryModel/ValueTypeDescriptor.swift" {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                #expect(
                    !line.contains(comparison),
                    "\(file.path):\(number + 1) compares a type name as a string; ask ValueType(elementName:) or the descriptor"
                )
            }
        }
    }

    /// The scanners themselves: a `default` at the switch's own level counts, one in a nested
    /// switch or inside a string does not; a comparison the rule forbids is seen.
    @Test func theScannersSeeWhatTheyLookFor() throws {
        let source = """
            switch value {
            case .point, .rect: break
            case .insets:
                switch other { default: break }
            }
            let page = "switch (x) { default: }"
            """
        let found = Self.switches(in: Self.code(source))
        #expect(found.count == 2)
        #expect(Self.listsValueTypes(found[0].labels) && !found[0].hasDefault)
        let withDefault = Self.switches(in: "switch v {\ncase .point, .rect, .insets: break\ndefault: break\n}")
        #expect(withDefault.first?.hasDefault == true)
    }
}
