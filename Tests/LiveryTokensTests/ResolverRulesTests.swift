import Foundation
import LiveryModel
import LiveryTokens
import Testing

/// Every rule of the resolver format (2025.10), one fixture each (`Tests/Fixtures/Resolver`):
/// a negative case gives exactly one error, located where `expected.json` says, with its words;
/// a positive case parses without a finding.
@Suite struct ResolverRulesTests {
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Resolver").standardizedFileURL.path

    struct Expected: Decodable, Sendable {
        var line: Int
        var column: Int
        var message: String
    }

    static let expected: [String: Expected] = {
        guard let data = FileManager.default.contents(atPath: root + "/expected.json") else { return [:] }
        return (try? JSONDecoder().decode([String: Expected].self, from: data)) ?? [:]
    }()

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []).filter {
            $0.hasSuffix(".json")
        }.sorted()
    }

    static func parse(_ relative: String) -> (ResolverDocument?, [Diagnostic]) {
        let bytes = [UInt8](FileManager.default.contents(atPath: root + "/" + relative) ?? Data())
        do {
            return ResolverDocument.parse(try TokenSource.read(relative, bytes: bytes))
        } catch {
            return (nil, [error.diagnostic])
        }
    }

    @Test func everyNegativeCaseIsListedWithItsError() {
        #expect(Set(Self.files("negative").map { "negative/" + $0 }) == Set(Self.expected.keys))
        #expect(Self.expected.count >= 28)
    }

    @Test(arguments: files("negative"))
    func aNegativeCaseGivesOneLocatedError(_ name: String) throws {
        let relative = "negative/" + name
        let (document, diagnostics) = Self.parse(relative)
        #expect(document == nil)
        let errors = diagnostics.filter { $0.severity == .error }
        let wanted = try #require(Self.expected[relative], "no entry for \(relative) in expected.json")
        #expect(errors.count == 1, "\(relative): \(errors.map(\.description))")
        let error = try #require(errors.first)
        #expect(error.code == .tokenResolver, "\(error)")
        #expect(error.location?.file == relative)
        #expect(error.location?.line == wanted.line && error.location?.column == wanted.column, "\(error)")
        #expect(error.message.contains(wanted.message), "\(error.message)")
    }

    @Test(arguments: files("positive"))
    func aPositiveCaseParses(_ name: String) {
        let (document, diagnostics) = Self.parse("positive/" + name)
        #expect(document != nil)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test func setsExpandInPlaceAndInlineItemsKeepTheirOrder() throws {
        let document = try #require(Self.parse("positive/sets-and-modifiers.resolver.json").0)
        #expect(document.steps.count == 4)
        guard case .set(let base) = document.steps[0] else {
            Issue.record("step 0 is not a set")
            return
        }
        #expect(base.count == 2, "primitives' one source, then base's inline tokens")
        #expect(document.modifiers.map(\.name) == ["appearance", "contrast"])
        #expect(document.modifiers[0].contexts.map(\.name) == ["light", "dark"])
        #expect(document.modifiers[0].contexts[1].sources.count == 2)
    }

    /// A chain of set references is followed up to the depth limit, and refused past it.
    @Test func setReferencesNestUpToTheLimit() throws {
        func chain(_ length: Int) -> String {
            let sets = (0..<length).map { index in
                index == length - 1
                    ? "\"s\(index)\": {\"sources\": []}"
                    : "\"s\(index)\": {\"sources\": [{\"$ref\": \"#/sets/s\(index + 1)\"}]}"
            }
            return
                "{\"version\": \"2025.10\", \"sets\": {\(sets.joined(separator: ", "))}, \"resolutionOrder\": [{\"$ref\": \"#/sets/s0\"}]}"
        }
        let limit = ResolverDocument.maxReferenceDepth
        let fine = ResolverDocument.parse(try TokenSource.read("r.json", bytes: Array(chain(limit).utf8)))
        #expect(fine.0 != nil, "\(fine.1)")
        let deep = ResolverDocument.parse(try TokenSource.read("r.json", bytes: Array(chain(limit + 1).utf8)))
        #expect(deep.0 == nil)
        #expect(deep.1.count == 1 && deep.1[0].message.contains("nest more than \(limit) deep"), "\(deep.1)")
    }

    /// A chain of aliases longer than the limit is one located error, not a deep recursion.
    @Test func aliasChainsStopAtTheLimit() throws {
        let length = TokenResolver.maxAliasDepth + 10
        var members = ["\"t0\": {\"$type\": \"number\", \"$value\": 1}"]
        for index in 1..<length { members.append("\"t\(index)\": {\"$value\": \"{t\(index - 1)}\"}") }
        // Listed from the end of the chain, so resolving the first token walks all of it.
        let source = try TokenSource.read(
            "chain.json", bytes: Array("{\(members.reversed().joined(separator: ", "))}".utf8))
        let (_, diagnostics) = TokenResolver.resolve([source])
        #expect(
            diagnostics.contains {
                $0.code == .tokenReferenceCycle
                    && $0.message.contains("more than \(TokenResolver.maxAliasDepth) aliases")
            }, "\(diagnostics.prefix(3))")
        #expect(diagnostics.allSatisfy { $0.location?.line != nil })
    }

    /// Too many combinations of contexts are refused before any is built.
    @Test func tooManyCombinationsAreRefused() throws {
        let modifiers = (0..<9).map { "\"m\($0)\": {\"contexts\": {\"a\": [], \"b\": []}}" }.joined(separator: ", ")
        let order = (0..<9).map { "{\"$ref\": \"#/modifiers/m\($0)\"}" }.joined(separator: ", ")
        let text = "{\"version\": \"2025.10\", \"modifiers\": {\(modifiers)}, \"resolutionOrder\": [\(order)]}"
        let document = try #require(ResolverDocument.parse(try TokenSource.read("r.json", bytes: Array(text.utf8))).0)
        var tokenImport = TokenImport { _ in nil }
        #expect(tokenImport.layers(resolver: document, map: ContextMap(), directory: "").isEmpty)
        #expect(
            tokenImport.diagnostics.count == 1
                && tokenImport.diagnostics[0].message.contains("more than 256 combinations"))
    }
}
