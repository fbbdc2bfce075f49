import ArgumentParser
import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryModel
import LiveryXML

/// `livery benchmark-load`: the issue's measurement, kept out of the test suite (timings in unit
/// tests are flaky on shared machines). Build with `-c release` for meaningful numbers.
struct BenchmarkLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark-load",
        abstract: "Measure loading a generated theme from XML vs from its compiled file.",
        shouldDisplay: false)

    @Option(help: "Instances in the generated theme.")
    var instances = 10_000

    @Option(help: "Repetitions of the XML load (the median is reported).")
    var xmlRuns = 5

    @Option(help: "Repetitions of the compiled load (the median is reported).")
    var compiledRuns = 200

    @Option(help: ArgumentHelp("Keep the generated theme and compiled file in this folder.", valueName: "DIR"))
    var keep: String?

    func run() throws {
        let folder = keep ?? NSTemporaryDirectory() + "livery-benchmark-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let theme = try SyntheticTheme.write(instances: instances, into: folder)
        let output = folder + "/Synthetic.livery"

        let compiled = ThemeCompiler.compile(themeAt: theme, workspace: ThemeWorkspace())
        guard let bytes = compiled.value else {
            DiagnosticPrinter().print(compiled.diagnostics)
            throw ExitCode.failure
        }
        try ThemeCompiler.writeAtomically(bytes, to: output)
        let files = try FileManager.default.contentsOfDirectory(atPath: theme).filter { $0.hasSuffix(".xml") }
        let xmlBytes = try files.reduce(0) { $0 + (try Data(contentsOf: URL(fileURLWithPath: theme + "/" + $1)).count) }
        let file = try CompiledTheme(contentsOf: output)
        let assetBytes = file.assets.reduce(0) { $0 + $1.length }

        let clock = ContinuousClock()
        func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
            var samples: [Double] = []
            for _ in 0..<runs {
                let start = clock.now
                try body()
                let elapsed = clock.now - start
                samples.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15)
            }
            return samples.sorted()[samples.count / 2]
        }

        // What an app without the compiler does at launch: read, check and resolve the XML.
        let xmlResolve = try median(xmlRuns) {
            guard ThemeWorkspace().resolve(themeAt: theme, traits: .none).value != nil else { throw ExitCode.failure }
        }
        let xmlAllVariants = try median(max(1, xmlRuns / 2)) {
            guard ThemeWorkspace().variants(ofThemeAt: theme).value != nil else { throw ExitCode.failure }
        }
        // What it does with a compiled file: open, map, verify; then it is ready for lookups.
        let compiledLoad = try median(compiledRuns) { _ = try CompiledTheme(contentsOf: output) }
        let checksums = try median(max(1, compiledRuns / 10)) { try file.verifyChecksums() }

        let ids = (0..<file.idCount).compactMap { file.id(of: InstanceHandle(rawValue: UInt32($0))) }
        var found = 0
        let lookupMilliseconds = median(5) {
            for id in ids where file.handle(for: id) != nil { found += 1 }
        }
        let variant = file.variant(for: .none)!
        let handles = ids.compactMap(file.handle(for:))
        var operations = 0
        let instanceMilliseconds = median(5) {
            for handle in handles { operations += (try? file.instance(handle, in: variant))?.operations.count ?? 0 }
        }

        func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
        print("""
            generated theme: \(instances) instances, \(files.count) XML files, \(xmlBytes) bytes of XML
            compiled file: \(bytes.count) bytes (\(bytes.count - assetBytes) without \(assetBytes) bytes of assets), \(file.variantCount) variants
            size ratio (compiled without assets / XML): \(String(format: "%.3f", Double(bytes.count - assetBytes) / Double(xmlBytes)))
            XML load, resolve one trait set (median of \(xmlRuns)): \(ms(xmlResolve))
            XML load, resolve every variant (median of \(max(1, xmlRuns / 2))): \(ms(xmlAllVariants))
            compiled load, open + mmap + verify (median of \(compiledRuns)): \(ms(compiledLoad))
            speed-up (XML one trait set / compiled load): \(String(format: "%.0f", xmlResolve / compiledLoad))x
            section checksums, on demand: \(ms(checksums))
            lookup by id: \(String(format: "%.0f", lookupMilliseconds * 1e6 / Double(ids.count))) ns per id (\(ids.count) ids)
            materialise one instance by handle: \(String(format: "%.0f", instanceMilliseconds * 1e6 / Double(handles.count))) ns
            """)
        if found == 0 || operations == 0 { throw ExitCode.failure }
    }
}
