// The whole of fuzz target (5), FuzzTokens, as a function: Fuzz/Sources/FuzzTokens/main.swift calls it
// for libFuzzer and Tests/LiveryTokensTests/FuzzTokensRegressionTests.swift replays
// Tests/Fixtures/Regressions/FuzzTokens through it (this file is linked there).
//
// bytes as what `livery tokens import` reads, in memory (no file is written):
// - a resolver document, when the bytes mention "resolutionOrder": parsed and checked, then every
//   combination of its contexts imported; the files it references resolve to a small fixed set
//   (`tokens.json`, `dark.json`, and `self.json`, which is the input itself), any other is missing;
// - otherwise a tokens file: read, resolved, validated and turned into theme constants, alone and
//   layered over a fixed base file.
// Invariants checked besides "no crash, no hang":
// - every error names a file, and one of the files the input could reach;
// - an import without errors gives a layer, and every constant has a name;
// - a resolver document that parses is parsed again to the same number of steps (no state leaks
//   between runs).
import LiveryModel
import LiveryTokens

enum FuzzTokensEntry {
    // Arrays, not Data: LeakSanitizer does not see through Data's representation.
    static let base: [UInt8] = Array(
        #"{"color": {"$type": "color", "brand": {"$value": {"colorSpace": "srgb", "components": [0, 0.5, 1]}}}, "size": {"$type": "dimension", "m": {"$value": {"value": 8, "unit": "px"}}}}"#
            .utf8)
    static let dark: [UInt8] = Array(
        #"{"color": {"$type": "color", "brand": {"$value": {"colorSpace": "srgb", "components": [0.2, 0.6, 1]}}, "text": {"$value": "{color.brand}"}}}"#
            .utf8)
    static let marker = Array("resolutionOrder".utf8)

    static let warmUpInputs: [[UInt8]] = [
        base,
        Array(
            ##"{"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "tokens.json"}]}}, "modifiers": {"appearance": {"contexts": {"light": [], "dark": [{"$ref": "dark.json"}]}}}, "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/appearance"}]}"##
                .utf8),
    ]

    static let knownFiles: Set<String> = ["input.json", "tokens.json", "dark.json", "self.json", "resolver.json"]

    /// What happened, for the replaying test (libFuzzer ignores it).
    @discardableResult
    static func run(_ data: UnsafeBufferPointer<UInt8>) -> String {
        let bytes = Array(data)
        let isResolver = contains(bytes, marker)
        let files: [String: [UInt8]] = ["tokens.json": base, "dark.json": dark, "self.json": bytes]
        var tokenImport = TokenImport { path in files[path] }
        let layers: [(fileName: String, constants: [ThemeConstant])]
        var diagnostics: [Diagnostic] = []
        if isResolver {
            let source: TokenSource
            do {
                source = try TokenSource.read("resolver.json", bytes: bytes)
            } catch {
                check([error.diagnostic])
                return "unreadable"
            }
            let (document, found) = ResolverDocument.parse(source)
            check(found)
            guard let document else {
                FuzzCheck.require(found.contains { $0.severity == .error }, "a refused resolver gave no error")
                return "refused resolver"
            }
            let again = ResolverDocument.parse(source)
            FuzzCheck.require(again.0?.steps.count == document.steps.count, "parsing the same resolver twice differs")
            layers = tokenImport.layers(resolver: document, map: ContextMap(), directory: "")
        } else {
            var plain = TokenImport { path in path == "input.json" ? bytes : files[path] }
            let alone = plain.layers(files: ["input.json"])
            diagnostics += plain.diagnostics + plain.importer.diagnostics
            check(diagnostics)
            if !diagnostics.contains(where: { $0.severity == .error }) {
                FuzzCheck.require(!alone.isEmpty, "a tokens file without errors gave no layer")
            }
            tokenImport = TokenImport { path in path == "input.json" ? bytes : files[path] }
            layers = tokenImport.layers(files: ["tokens.json", "input.json"])
        }
        let found = tokenImport.diagnostics + tokenImport.importer.diagnostics
        check(found)
        _ = tokenImport.skippedWarning
        for layer in layers {
            for constant in layer.constants { FuzzCheck.require(!constant.name.isEmpty, "a constant without a name") }
        }
        if !found.contains(where: { $0.severity == .error }) && !(isResolver && layers.isEmpty) {
            FuzzCheck.require(!layers.isEmpty, "an import without errors gave no layer")
        }
        return
            "\(isResolver ? "resolver" : "tokens"): \(layers.count) layers, \(found.filter { $0.severity == .error }.count) errors"
    }

    /// Every error is located in a file the input could reach.
    static func check(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics where diagnostic.severity == .error {
            guard let file = diagnostic.location?.file else {
                FuzzCheck.require(false, "an error without a file: \(diagnostic)")
                return
            }
            FuzzCheck.require(knownFiles.contains(file), "an error in a file the input cannot reach: \(diagnostic)")
        }
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if Array(bytes[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }
}
