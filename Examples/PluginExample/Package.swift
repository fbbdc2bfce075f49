// swift-tools-version: 6.0
import PackageDescription

// An app target whose themes are checked, compiled and turned into Swift identifiers at build
// time by Livery's build-tool plugin. A theme with an error fails `swift build` with
// `file:line:col: error:` lines; a misspelt identifier in main.swift fails to compile.
let package = Package(
    name: "PluginExample",
    dependencies: [
        .package(name: "Livery", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "PluginExample",
            dependencies: [
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryBinary", package: "Livery"),
            ],
            // The theme folders ship as they are (the runtime can read them, live reload can watch
            // them); the plugin adds the compiled `.livery` files beside them in the bundle.
            resources: [.copy("Themes")],
            plugins: [.plugin(name: "LiveryThemePlugin", package: "Livery")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
