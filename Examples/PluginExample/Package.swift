// swift-tools-version: 6.0
import PackageDescription

// An app target whose themes are checked, compiled and turned into Swift identifiers at build
// time by Livery's build-tool plugin. A theme with an error fails `swift build` with
// `file:line:col: error:` lines; a misspelt identifier in main.swift fails to compile.
let package = Package(
    name: "PluginExample",
    dependencies: [
        .package(name: "Livery", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "PluginExample",
            dependencies: [
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryBinary", package: "Livery"),
                .product(name: "LiveryHeadless", package: "Livery"),
            ],
            // The theme folders are the plugin's input, not resources: the app ships the compiled
            // `.livery` files the plugin writes and reads them without any XML (a release build).
            exclude: ["Themes"],
            plugins: [.plugin(name: "LiveryThemePlugin", package: "Livery")]
        )
    ],
    swiftLanguageModes: [.v6]
)
