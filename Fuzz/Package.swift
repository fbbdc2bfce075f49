// swift-tools-version:5.4
// libFuzzer targets for Livery. A nested package because `-sanitize=fuzzer` links only with
// swift-tools-version 5.4 or lower (see docs/Security.md). Build and run with Scripts/fuzz.sh.
import PackageDescription

let package = Package(
    name: "LiveryFuzz",
    dependencies: [
        .package(name: "Livery", path: "..")
    ],
    targets: [
        // (1) XML bytes as a theme file: parse, validate (every trait set), resolve, and when the
        // theme is valid, compile and read back (the compiled file must materialise as the model).
        .executableTarget(
            name: "FuzzXML",
            dependencies: [
                .product(name: "LiveryXML", package: "Livery"),
                .product(name: "LiveryBinary", package: "Livery"),
                .product(name: "LiveryModel", package: "Livery"),
            ]),
        // (2) Bytes as a compiled file: verify, then every accessor and a full materialisation.
        .executableTarget(
            name: "FuzzCompiled",
            dependencies: [
                .product(name: "LiveryBinary", package: "Livery"),
                .product(name: "LiveryModel", package: "Livery"),
            ]),
        // (3) A theme model generated from the bytes, compiled and read back: must be equal.
        .executableTarget(
            name: "FuzzRoundTrip",
            dependencies: [
                .product(name: "LiveryBinary", package: "Livery"),
                .product(name: "LiveryModel", package: "Livery"),
            ]),
        // (4) Bytes as a downloaded package, installed into a fresh folder: nothing may be written
        // outside it, and a failed install must leave it exactly as it was.
        .executableTarget(
            name: "FuzzPackage",
            dependencies: [
                .product(name: "LiveryStore", package: "Livery"),
                .product(name: "LiveryStoreDevelopment", package: "Livery"),
            ]),
        // (5) Bytes as what `livery tokens import` reads: a tokens file, or a resolver document
        // whose combinations are imported; every error located, nothing read beyond a fixed set.
        .executableTarget(
            name: "FuzzTokens",
            dependencies: [
                .product(name: "LiveryTokens", package: "Livery"),
                .product(name: "LiveryModel", package: "Livery"),
            ]),
    ]
)
