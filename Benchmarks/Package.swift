// swift-tools-version: 6.1
// The benchmark suite, kept out of the main package so `swift test` never builds its
// dependencies. Two ways in:
//   swift run -c release livery-bench report ...   the side-by-side report, table and chart
//   swift package benchmark                        ordo-one/benchmark micro-benchmarks with
//                                                  malloc counts, for regression tracking
import PackageDescription

let package = Package(
    name: "LiveryBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Livery", path: ".."),
        // Only the MallocInterposer trait: the default traits pull in a runtime interposer that
        // is not in the local package mirror.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        // Generator, comparison loaders (XMLParser, JSON, plist), measurement helpers.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "LiveryModel", package: "Livery"),
                .product(name: "LiveryXML", package: "Livery"),
                .product(name: "LiveryBinary", package: "Livery"),
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryDevelopment", package: "Livery"),
                .product(name: "LiveryHeadless", package: "Livery"),
            ]
        ),
        // The report: every loader on every N in one process, runtime, memory, compile; writes
        // the Markdown table, results JSON and the SVG chart.
        .executableTarget(
            name: "livery-bench",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "LiveryModel", package: "Livery"),
                .product(name: "LiveryXML", package: "Livery"),
                .product(name: "LiveryBinary", package: "Livery"),
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryDevelopment", package: "Livery"),
                .product(name: "LiveryHeadless", package: "Livery"),
            ]
        ),
        // Heap allocations of the runtime scenario, counted by the malloc interposer in a process
        // of its own (livery-bench starts it with LD_PRELOAD).
        .executableTarget(
            name: "livery-bench-allocs",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // The language server alone, for Benchmarks/Scripts/bench-lsp.py: `livery lsp`'s code
        // in release without building the CLI's server stack.
        .executableTarget(
            name: "livery-lsp-server",
            dependencies: [.product(name: "LiveryLanguageServer", package: "Livery")]
        ),
        // `tokens import` / `export` on 10,000 generated design tokens, timed phase by phase
        // (Benchmarks/Scripts/bench-tokens.sh).
        .executableTarget(
            name: "livery-tokens-bench",
            dependencies: [
                .product(name: "LiveryTokens", package: "Livery"),
                .product(name: "LiveryXML", package: "Livery"),
                .product(name: "LiveryModel", package: "Livery"),
            ]
        ),
        // The runtime under 10,000 headless components: registration, first switch, warm
        // switches, with and without preloading (`livery-switch-bench`, formerly the chat demo's
        // `--benchmark` flags).
        .executableTarget(
            name: "livery-switch-bench",
            dependencies: [
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryHeadless", package: "Livery"),
                .product(name: "LiveryModel", package: "Livery"),
            ]
        ),
        // Livery on 1,001 real GTK 4 widgets against GTK's own stylesheet swap, under Xvfb
        // (Benchmarks/Scripts/bench-gtk.sh). Kept apart from livery-bench so that the report builds without GTK.
        .executableTarget(
            name: "livery-gtk-bench",
            dependencies: [
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryDevelopment", package: "Livery"),
                .product(name: "LiveryGTK", package: "Livery"),
            ]
        ),
        // ordo-one/benchmark target: `swift package benchmark`.
        .executableTarget(
            name: "LiveryBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LiveryModel", package: "Livery"),
                .product(name: "LiveryXML", package: "Livery"),
                .product(name: "LiveryBinary", package: "Livery"),
                .product(name: "Livery", package: "Livery"),
            ],
            path: "Benchmarks/LiveryBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
