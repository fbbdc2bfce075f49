import Foundation
import LiveryModel
import LiveryTokens
import LiveryXML

// Times `tokens import` and `tokens export` on a generated file of N tokens (default 10,000), the
// way the CLI runs them: read + resolve + map, write the staged folder, validate it with the XML
// front end, rename; and read the theme's constants + build + render the DTCG JSON.
// Run with Benchmarks/Scripts/bench-tokens.sh (a release build); prints min and median of each phase.

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10_000
let iterations = 7

/// A tokens file like a design system's: a palette, semantic aliases onto it, spacing, type.
func generate(_ count: Int) -> String {
    var groups: [String] = []
    let quarter = count / 4
    var palette: [String] = []
    for index in 0..<quarter {
        let (r, g, b) = (Double(index % 256) / 255, Double((index * 7) % 256) / 255, Double((index * 13) % 256) / 255)
        palette.append(#""c\#(index)": {"$value": {"colorSpace": "srgb", "components": [\#(r), \#(g), \#(b)]}}"#)
    }
    groups.append(#""palette": {"$type": "color", \#(palette.joined(separator: ", "))}"#)
    var semantic: [String] = []
    for index in 0..<quarter {
        semantic.append(
            #""s\#(index)": {"$value": "{palette.c\#(index)}", "$description": "Semantic colour \#(index)"}"#)
    }
    groups.append(#""semantic": {"$type": "color", \#(semantic.joined(separator: ", "))}"#)
    var space: [String] = []
    for index in 0..<quarter {
        space.append(
            #""d\#(index)": {"$value": {"value": \#(index % 64), "unit": "\#(index % 2 == 0 ? "px" : "rem")"}}"#)
    }
    groups.append(#""space": {"$type": "dimension", \#(space.joined(separator: ", "))}"#)
    var type: [String] = []
    for index in 0..<(count - 3 * quarter) {
        type.append(
            #""t\#(index)": {"$type": "typography", "$value": {"fontFamily": ["Inter", "sans-serif"], "fontSize": {"value": \#(10 + index % 30), "unit": "px"}, "fontWeight": \#(100 * (1 + index % 9)), "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.2}}"#
        )
    }
    groups.append(#""type": {\#(type.joined(separator: ", "))}"#)
    return "{" + groups.joined(separator: ",\n") + "}"
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func report(_ name: String, _ samples: [Double]) {
    let sorted = samples.sorted()
    print(String(format: "%-44@ min %8.1f ms   median %8.1f ms", name as NSString, sorted[0], sorted[sorted.count / 2]))
}

let root = NSTemporaryDirectory() + "livery-tokens-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }
let text = generate(count)
let bytes = Array(text.utf8)
print("tokens: \(count), file: \(bytes.count / 1024) KiB, \(iterations) runs each")

var resolveSamples: [Double] = [], mapSamples: [Double] = [], writeSamples: [Double] = []
var constants: [ThemeConstant] = []
for _ in 0..<iterations {
    var tokens: [ResolvedToken] = []
    resolveSamples.append(
        try time {
            let result = TokenResolver.resolve([try TokenSource.read("tokens.json", bytes: bytes)])
            precondition(!result.diagnostics.hasErrors, "\(result.diagnostics.prefix(3))")
            tokens = result.tokens
        })
    mapSamples.append(
        time {
            var importer = TokenImporter()
            constants = importer.constants(of: tokens)
        })
    let theme = TokenTheme(
        id: "bench.tokens", name: "Tokens", parent: nil, layers: [("Tokens.xml", constants)], sources: ["tokens.json"])
    writeSamples.append(
        time {
            let findings = ThemeFolderWriter.write(theme, to: root + "/Tokens.theme") { staged in
                ThemeWorkspace(searchPaths: [root]).validate(paths: [staged]).filter { $0.code != .constantUnused }
            }
            precondition(!findings.hasErrors, "\(findings.prefix(3))")
        })
}
report("import: read + resolve + validate tokens", resolveSamples)
report("import: map to constants", mapSamples)
report("import: write, XML-validate, rename folder", writeSamples)
report(
    "import total (median sum)",
    [[resolveSamples, mapSamples, writeSamples].map { $0.sorted()[$0.count / 2] }.reduce(0, +)])

var readSamples: [Double] = [], exportSamples: [Double] = []
var exported: [ExportedConstant] = []
for _ in 0..<iterations {
    readSamples.append(
        time {
            let result = ThemeWorkspace().constants(ofThemeAt: root + "/Tokens.theme", traits: .none)
            exported = (result.value ?? []).map {
                ExportedConstant(name: $0.name, value: $0.value, reference: $0.reference)
            }
        })
    exportSamples.append(
        time {
            var exporter = TokenExporter()
            let json = exporter.document(exported).rendered()
            precondition(json.utf8.count > 0)
        })
}
precondition(exported.count == constants.count, "export read \(exported.count) of \(constants.count) constants")
report("export: read theme constants (XML front end)", readSamples)
report("export: build + render DTCG JSON", exportSamples)
report("export total (median sum)", [readSamples.sorted()[iterations / 2] + exportSamples.sorted()[iterations / 2]])
