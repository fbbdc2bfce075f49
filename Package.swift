// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Livery",
    products: [
        .library(name: "LiveryModel", targets: ["LiveryModel"]),
        .library(name: "LiveryXML", targets: ["LiveryXML"]),
        .library(name: "LiveryBinary", targets: ["LiveryBinary"]),
        .library(name: "Livery", targets: ["Livery"]),
        .library(name: "LiveryTooling", targets: ["LiveryTooling"]),
        .executable(name: "livery", targets: ["livery"]),
        .executable(name: "livery-chat-demo", targets: ["livery-chat-demo"]),
        .plugin(name: "LiveryThemePlugin", targets: ["LiveryThemePlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The only C in the package: libxml2, behind a shim that fixes the ICU clash with Foundation.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Values only, no dependencies: what every other module speaks.
        .target(name: "LiveryModel"),
        // The XML front end: parse, validate and resolve `.theme` folders.
        .target(name: "LiveryXML", dependencies: ["LiveryModel", "CLibXML2"]),
        // The compiled format: writer, verifier, memory-mapped reader. Knows the model only.
        .target(name: "LiveryBinary", dependencies: ["LiveryModel"]),
        // Theme folder -> compiled bytes: front end + format, source digests, atomic writes.
        .target(name: "LiveryCompiler", dependencies: ["LiveryModel", "LiveryXML", "LiveryBinary"]),
        // The runtime apps link: theme manager, applicator, bindings, headless components.
        .target(name: "Livery", dependencies: ["LiveryModel", "LiveryXML", "LiveryBinary", "LiveryCompiler"]),
        // Designer and reviewer tools behind the CLI: preview pages, diffs, provenance text, Swift
        // identifiers, SARIF, file watching. A library so every one of them is testable.
        .target(name: "LiveryTooling", dependencies: ["LiveryModel", "LiveryXML", "LiveryBinary"]),
        // The command-line tool CI and designers use.
        .executableTarget(
            name: "livery",
            dependencies: [
                "LiveryModel", "LiveryXML", "LiveryBinary", "LiveryCompiler", "LiveryTooling",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/livery"
        ),
        // The chat-screen example: headless components styled from Themes/, switched live.
        .executableTarget(
            name: "livery-chat-demo",
            dependencies: ["Livery", "LiveryModel"],
            path: "Examples/ChatDemo",
            exclude: ["Livery.xml", "Scripts"]
        ),
        // Build-tool plugin: validates and compiles a target's `.theme` folders and generates
        // Swift identifiers for them at build time (see Examples/PluginExample).
        .plugin(
            name: "LiveryThemePlugin",
            capability: .buildTool(),
            dependencies: ["livery"]
        ),
        .testTarget(name: "LiveryModelTests", dependencies: ["LiveryModel"]),
        .testTarget(name: "LiveryXMLTests", dependencies: ["LiveryXML"]),
        .testTarget(name: "LiveryBinaryTests", dependencies: ["LiveryBinary", "LiveryXML"]),
        .testTarget(name: "LiveryCompilerTests", dependencies: ["LiveryCompiler", "LiveryBinary", "LiveryXML"]),
        .testTarget(name: "LiveryTests", dependencies: ["Livery", "LiveryCompiler", "LiveryBinary"]),
        .testTarget(name: "LiveryToolingTests", dependencies: ["LiveryTooling", "LiveryXML", "LiveryModel", "Livery"]),
        .testTarget(name: "LiveryCLITests", dependencies: ["livery", "LiveryModel"]),
    ],
    swiftLanguageModes: [.v6]
)
