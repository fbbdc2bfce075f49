import Foundation
import LiveryModel
import LiveryTokens
import Testing

/// The format's own test suite (design-tokens/community-group, test-suite/tests/2025.10/format,
/// copied into Tests/Fixtures/DTCG/format; see the README there). Every positive case must read,
/// resolve and validate with no error; every negative case must give at least one error with a
/// line and column in the case's file.
struct ConformanceTests {
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/DTCG").standardizedFileURL.path

    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var positive: Bool
        var testDescription: String { input }
    }

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: root + "/format/manifest.json"),
            let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let tests = manifest["tests"] as? [[String: Any]]
        else { return [] }
        return tests.compactMap { test in
            guard let input = test["input"] as? String, let type = test["type"] as? String else { return nil }
            return Case(input: input, positive: type == "PositiveEvaluationTest")
        }
    }()

    static func resolve(_ input: String) -> (tokens: [ResolvedToken], diagnostics: [Diagnostic]) {
        let path = root + "/format/" + input
        let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        do {
            return TokenResolver.resolve([try TokenSource.read(input, bytes: bytes)])
        } catch {
            return ([], [error.diagnostic])
        }
    }

    @Test func manifestListsEveryCaseFile() throws {
        #expect(Self.cases.count == 221)
        #expect(Self.cases.filter(\.positive).count == 93)
        let listed = Set(Self.cases.map(\.input))
        let enumerator = try #require(FileManager.default.enumerator(atPath: Self.root + "/format"))
        let files = Set(
            enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") && $0 != "manifest.json" })
        #expect(files == listed)
    }

    @Test(arguments: cases.filter(\.positive))
    func positiveCaseValidates(_ testCase: Case) {
        let (tokens, diagnostics) = Self.resolve(testCase.input)
        #expect(!diagnostics.hasErrors, "\(diagnostics.map(\.description))")
        #expect(!tokens.isEmpty || testCase.input.hasSuffix("empty-group.json"))
    }

    @Test(arguments: cases.filter { !$0.positive })
    func negativeCaseIsRejectedWithALocatedError(_ testCase: Case) {
        let (_, diagnostics) = Self.resolve(testCase.input)
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(!errors.isEmpty, "no error for a negative case")
        for error in errors {
            #expect(error.location?.file == testCase.input)
            #expect(error.location?.line != nil && error.location?.column != nil, "\(error)")
        }
    }
}
