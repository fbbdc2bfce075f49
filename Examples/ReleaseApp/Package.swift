// swift-tools-version: 6.0
import PackageDescription

// What a release app links: the `Livery` product alone. Scripts/check-release-app.sh builds it
// in release and fails if the binary holds anything of the XML front end (LiveryXML, libxml2's
// xml* functions), the compiler or swift-crypto (BoringSSL).
let package = Package(
    name: "ReleaseApp",
    dependencies: [
        .package(name: "Livery", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ReleaseApp",
            dependencies: [.product(name: "Livery", package: "Livery")]
        )
    ],
    swiftLanguageModes: [.v6]
)
