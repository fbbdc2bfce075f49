// swift-tools-version: 6.0
import PackageDescription

// An app that sells themes: the `Livery` runtime and the `LiveryStore` product, nothing else.
// Scripts/check-release-app.sh builds it in release, runs it against a signed catalog served on
// loopback, and fails if the binary holds anything of the XML front end (LiveryXML, libxml2's
// xml* functions, FoundationXML) or the compiler: the store installs compiled files only.
let package = Package(
    name: "StoreApp",
    dependencies: [
        .package(name: "Livery", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "StoreApp",
            dependencies: [
                .product(name: "Livery", package: "Livery"),
                .product(name: "LiveryStore", package: "Livery"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
