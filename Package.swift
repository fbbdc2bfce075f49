// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Livery",
    products: [
        .library(name: "LiveryModel", targets: ["LiveryModel"]),
        .library(name: "LiveryXML", targets: ["LiveryXML"]),
        .library(name: "LiveryBinary", targets: ["LiveryBinary"]),
        .library(name: "Livery", targets: ["Livery"]),
        .library(name: "LiveryDevelopment", targets: ["LiveryDevelopment"]),
        .library(name: "LiveryHeadless", targets: ["LiveryHeadless"]),
        .library(name: "LiveryGTK", targets: ["LiveryGTK"]),
        .library(name: "LiveryAdwaita", targets: ["LiveryAdwaita"]),
        .library(name: "LiveryTooling", targets: ["LiveryTooling"]),
        .library(name: "LiveryStore", targets: ["LiveryStore"]),
        .library(name: "LiveryStoreDevelopment", targets: ["LiveryStoreDevelopment"]),
        .library(name: "LiveryTokens", targets: ["LiveryTokens"]),
        .library(name: "LiveryServe", targets: ["LiveryServe"]),
        .library(name: "LiveryStudio", targets: ["LiveryStudio"]),
        .library(name: "LiveryStudioClient", targets: ["LiveryStudioClient"]),
        .library(name: "LiveryLanguageServer", targets: ["LiveryLanguageServer"]),
        .executable(name: "livery", targets: ["livery"]),
        .executable(name: "livery-build-tool", targets: ["livery-build-tool"]),
        .executable(name: "livery-chat-demo", targets: ["livery-chat-demo"]),
        .executable(name: "livery-gtk-demo", targets: ["livery-gtk-demo"]),
        .plugin(name: "LiveryThemePlugin", targets: ["LiveryThemePlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // `swift package generate-documentation`: the API reference from the DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        // The only C in the package: libxml2, behind a shim that fixes the ICU clash with Foundation.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // GTK 4, for LiveryGTK only: shim.h turns the GObject cast macros into inline functions.
        // A product that does not depend on LiveryGTK never needs GTK installed to build.
        .systemLibrary(
            name: "CGTK",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // libadwaita, for LiveryAdwaita only: an app that does not use libadwaita never needs it.
        .systemLibrary(
            name: "CAdwaita",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev"])]
        ),
        // Values only, no dependencies: what every other module speaks.
        .target(name: "LiveryModel"),
        // The XML front end: parse, validate and resolve `.theme` folders.
        .target(name: "LiveryXML", dependencies: ["LiveryModel", "CLibXML2"]),
        // The compiled format: writer, verifier, memory-mapped reader. Knows the model only.
        .target(name: "LiveryBinary", dependencies: ["LiveryModel"]),
        // Theme folder -> compiled bytes: front end + format, source digests, atomic writes.
        .target(
            name: "LiveryCompiler",
            dependencies: [
                "LiveryModel", "LiveryXML", "LiveryBinary", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The runtime apps link: theme manager, applicator, bindings, compiled files. Nothing of
        // the XML front end, the compiler or swift-crypto (Scripts/check-release-app.sh).
        .target(name: "Livery", dependencies: ["LiveryModel", "LiveryBinary"]),
        // What an app adds in debug builds: `.theme` folders through the XML front end, the
        // staleness check of compiled files, live reload, compiling into a `<compiled-path>` cache.
        .target(
            name: "LiveryDevelopment",
            dependencies: [
                "Livery", "LiveryModel", "LiveryXML", "LiveryBinary", "LiveryCompiler",
            ]),
        // The headless reference components (View, Label, Button...) and their bindings, for
        // tests, benchmarks and examples; registered only when asked for.
        .target(name: "LiveryHeadless", dependencies: ["Livery", "LiveryModel"]),
        // The GTK 4 adapter: the standard schema bound to real widgets, styled through GTK's CSS.
        .target(name: "LiveryGTK", dependencies: ["Livery", "LiveryModel", "CGTK"]),
        // Dark mode and high contrast as libadwaita decides them, for GTKSystemTraits.
        .target(name: "LiveryAdwaita", dependencies: ["LiveryGTK", "CAdwaita"]),
        // Designer and reviewer tools behind the CLI: preview pages, diffs, provenance text, Swift
        // identifiers, SARIF, file watching. A library so every one of them is testable.
        .target(name: "LiveryTooling", dependencies: ["LiveryModel", "LiveryXML", "LiveryBinary"]),
        // Theme packages and the store apps link: manifest, safe extraction, catalog client,
        // downloads, install / update / uninstall, recovery, content-type handlers. HTTP through
        // AsyncHTTPClient (NIO): its response bodies are read only as fast as they are consumed,
        // so the download caps bound the bytes read and the memory (docs/Packages.md).
        // Themes are installed from the compiled file a package carries, checked by the runtime's
        // own verifier: nothing of the XML front end or the compiler (Scripts/check-release-app.sh).
        .target(
            name: "LiveryStore",
            dependencies: [
                "LiveryModel", "LiveryBinary", "Livery",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]),
        // What tools and development builds add to the store: `livery pack` (validate, compile,
        // package) and installing a theme from its sources (compiled on the machine, children
        // compiled again when a parent is updated).
        .target(
            name: "LiveryStoreDevelopment",
            dependencies: [
                "LiveryStore", "LiveryModel", "LiveryXML", "LiveryBinary", "LiveryCompiler",
            ]),
        // `livery serve`: a catalog folder over HTTP (Hummingbird), kept out of LiveryStore so
        // apps do not link a server.
        .target(
            name: "LiveryServe",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // The studio's engine, free of any server: lossless write-back of one value into a theme
        // file (atomic, inside the given folders, refused on a stale file), the session a browser
        // edits (composed screen, provenance, edit targets, undo), the page itself.
        .target(
            name: "LiveryStudio",
            dependencies: [
                "LiveryModel", "LiveryXML", "LiveryTooling", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // `livery studio`: the session over HTTP and WebSocket (Hummingbird), token-guarded.
        .target(
            name: "LiveryStudioServer",
            dependencies: [
                "LiveryStudio", "LiveryModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // What a debug app adds to follow a studio over the network: a WebSocket client that
        // mirrors the studio's theme files into a local folder and hands them to `LiveReload`.
        // A product of its own so `Livery` and `LiveryDevelopment` stay free of NIO.
        .target(
            name: "LiveryStudioClient",
            dependencies: [
                "Livery", "LiveryDevelopment", "LiveryModel",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // `livery lsp`: the front end kept warm for editors (LSP over stdio, Foundation only).
        .target(
            name: "LiveryLanguageServer",
            dependencies: ["LiveryModel", "LiveryXML", "LiveryTooling"]),
        // W3C design tokens (DTCG 2025.10) in and out: positioned JSON, validation, import to
        // theme constants, export from them. The model only: the CLI reads and validates themes.
        .target(name: "LiveryTokens", dependencies: ["LiveryModel"]),
        // The theme commands (validate, compile, dump, inspect, build, generate-swift) and their
        // reporting, shared by `livery` and the lean `livery-build-tool`: no network, no server.
        .target(
            name: "LiveryThemeCommands",
            dependencies: [
                "LiveryModel", "LiveryXML", "LiveryBinary", "LiveryCompiler", "LiveryTooling",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tools/LiveryThemeCommands"
        ),
        // The command-line tool CI and designers use: every command, the store's and the server's too.
        .executableTarget(
            name: "livery",
            dependencies: [
                "LiveryThemeCommands", "LiveryModel", "LiveryXML", "LiveryBinary", "LiveryCompiler", "LiveryTooling",
                "LiveryStore", "LiveryStoreDevelopment", "LiveryServe", "LiveryTokens", "LiveryStudioServer",
                "LiveryLanguageServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/livery"
        ),
        // The theme commands alone: what the build-tool plugin runs on an app's build and what the
        // main job (Scripts/build-themes.sh) runs, without the CLI's store client and server.
        .executableTarget(
            name: "livery-build-tool",
            dependencies: [
                "LiveryThemeCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/livery-build-tool"
        ),
        // The chat-screen example: headless components styled from Themes/, switched live.
        .executableTarget(
            name: "livery-chat-demo",
            dependencies: ["Livery", "LiveryModel", "LiveryDevelopment", "LiveryHeadless", "LiveryStudioClient"],
            path: "Examples/ChatDemo",
            exclude: ["Livery.xml"]
        ),
        // The chat example as a GTK 4 app: real widgets styled from Themes/, switched live;
        // `--screenshots DIR` renders every sample theme in each trait set offscreen; `--follow URL`
        // follows a running `livery studio`.
        .executableTarget(
            name: "livery-gtk-demo",
            dependencies: [
                "Livery", "LiveryModel", "LiveryDevelopment", "LiveryGTK", "CGTK", "LiveryStudioClient",
                "LiveryAdwaita",
            ],
            path: "Examples/GTKDemo",
            exclude: ["Livery.xml"]
        ),
        // Build-tool plugin: validates and compiles a target's `.theme` folders and generates
        // Swift identifiers for them at build time (see Examples/PluginExample).
        .plugin(
            name: "LiveryThemePlugin",
            capability: .buildTool(),
            dependencies: ["livery-build-tool"]
        ),
        .testTarget(name: "LiveryModelTests", dependencies: ["LiveryModel"]),
        .testTarget(name: "LiveryXMLTests", dependencies: ["LiveryXML"]),
        .testTarget(name: "LiveryBinaryTests", dependencies: ["LiveryBinary", "LiveryXML"]),
        .testTarget(name: "LiveryCompilerTests", dependencies: ["LiveryCompiler", "LiveryBinary", "LiveryXML"]),
        .testTarget(
            name: "LiveryTests",
            dependencies: [
                "Livery", "LiveryDevelopment", "LiveryHeadless", "LiveryCompiler", "LiveryBinary",
            ]),
        .testTarget(
            name: "LiveryToolingTests",
            dependencies: [
                "LiveryTooling", "LiveryXML", "LiveryModel", "Livery", "LiveryDevelopment", "LiveryHeadless",
                "LiveryBinary", "LiveryTokens",
            ]),
        .testTarget(
            name: "LiveryStoreTests",
            dependencies: [
                "LiveryStore", "LiveryStoreDevelopment", "LiveryServe", "Livery", "LiveryModel", "LiveryBinary",
                "LiveryCompiler", "LiveryDevelopment",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        .testTarget(
            name: "LiveryStudioTests",
            dependencies: [
                "LiveryStudio", "LiveryStudioServer", "LiveryStudioClient", "LiveryXML", "LiveryModel", "Livery",
                "LiveryDevelopment", "LiveryHeadless",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        .testTarget(name: "LiveryCLITests", dependencies: ["livery", "LiveryModel"]),
        // The GTK adapter in real pixels: needs a display (Scripts/test.sh starts Xvfb).
        .testTarget(
            name: "LiveryGTKTests", dependencies: ["LiveryGTK", "Livery", "LiveryModel", "CGTK", "LiveryHeadless"]),
        .testTarget(name: "LiveryTokensTests", dependencies: ["LiveryTokens", "LiveryModel"]),
        // The language server's own caches (end to end: Tests/LSP, through pytest-lsp).
        .testTarget(name: "LiveryLanguageServerTests", dependencies: ["LiveryLanguageServer"]),
        // libadwaita followed through a private session bus and a settings portal stand-in.
        .testTarget(
            name: "LiveryAdwaitaTests", dependencies: ["LiveryAdwaita", "LiveryGTK", "Livery", "CAdwaita"],
            exclude: ["settings-portal.py"]),
    ],
    swiftLanguageModes: [.v6]
)
