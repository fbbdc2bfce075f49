// swift-tools-version: 6.0
import PackageDescription

// A GTK 4 app styled by Livery, as an app's own package: it depends on Livery's products only
// (`LiveryGTK` re-exports GTK's C API, so the app needs no other module), reads its theme
// folder in development (`LiveryDevelopment`), and follows the desktop's dark mode, high
// contrast, text scaling and scale factor (`GTKSystemTraits`).
//
//   swift run --package-path Examples/GTKApp GTKApp                  # the window
//   swift run --package-path Examples/GTKApp GTKApp --screenshot F   # render it once to a PNG
let package = Package(
    name: "GTKApp",
    dependencies: [
        .package(name: "Livery", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "GTKApp",
            dependencies: [
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryGTK", package: "Livery"),
                .product(name: "LiveryDevelopment", package: "Livery"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
