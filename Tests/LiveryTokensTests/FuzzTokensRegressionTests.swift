import Foundation
import LiveryModel
import LiveryTokens
import Testing

/// Replays every input FuzzTokens once failed on (`Tests/Fixtures/Regressions/FuzzTokens/`,
/// minimised) through the fuzz target's own entry point: `Fuzz/FuzzTokensEntry.swift` here links to
/// `Fuzz/Sources/FuzzTokens/FuzzTokensEntry.swift`, the code libFuzzer runs. A regression traps,
/// as it did under the fuzzer. The seeds go through it too: the sample tokens and resolver, and
/// every resolver fixture.
@Suite struct FuzzTokensRegressionTests {
    static let fixtures: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").standardizedFileURL.path
    static let themes: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Themes").standardizedFileURL.path

    static func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { folder + "/" + $0 }
    }

    @discardableResult
    static func replay(_ path: String) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return bytes.withUnsafeBufferPointer { FuzzTokensEntry.run($0) }
    }

    @Test func regressionsAndSeedsPassThroughTheEntry() throws {
        for path in Self.files(in: Self.fixtures + "/Regressions/FuzzTokens") { try Self.replay(path) }
        #expect(try Self.replay(Self.themes + "/tokens/tokens.json") == "tokens: 1 layers, 0 errors")
        #expect(try Self.replay(Self.themes + "/tokens/tokens.resolver.json").hasPrefix("resolver: "))
        for path in Self.files(in: Self.fixtures + "/Resolver/negative") where path.hasSuffix(".resolver.json") {
            let outcome = try Self.replay(path)
            // Refused as a resolver, or (without "resolutionOrder") read as a tokens file with errors.
            #expect(outcome == "refused resolver" || !outcome.hasSuffix(" 0 errors"), "\(path): \(outcome)")
        }
        for path in Self.files(in: Self.fixtures + "/Resolver/positive") {
            #expect(try Self.replay(path).hasPrefix("resolver: "), "\(path)")
        }
        // The warm-up inputs: a token file and a resolver that imports two layers.
        for input in FuzzTokensEntry.warmUpInputs { _ = input.withUnsafeBufferPointer { FuzzTokensEntry.run($0) } }
        #expect(
            FuzzTokensEntry.warmUpInputs[1].withUnsafeBufferPointer { FuzzTokensEntry.run($0) }
                == "resolver: 2 layers, 0 errors")
    }
}
