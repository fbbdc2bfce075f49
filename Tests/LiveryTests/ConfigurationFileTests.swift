import Foundation
import Testing

@testable import Livery

/// The configuration file's XML, read by `PlainXML` (not Foundation's XMLParser): what XML
/// allows is read, and each malformed or hostile document is one located error.
@Suite struct ConfigurationFileTests {
    private func parse(_ xml: String) -> Checked<LiveryConfiguration> {
        LiveryConfiguration.parse(Data(xml.utf8), file: "Livery.xml", baseFolder: "/app")
    }

    /// The one error of a document, as `file:line:col message`.
    private func error(_ xml: String) -> String? {
        let result = parse(xml)
        guard result.value == nil, result.diagnostics.count == 1, let diagnostic = result.diagnostics.first,
            let location = diagnostic.location
        else { return nil }
        return "\(location.file):\(location.line ?? 0):\(location.column ?? 0) \(diagnostic.message)"
    }

    @Test func everythingXMLAllowsIsRead() {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- the app's themes -->
            <livery-configuration default-theme='com.livery.d&#233;mo'>
              <?app-hint keep?>
              <search-path>Th&amp;emes</search-path>
              <search-path><![CDATA[Down<loads>]]></search-path>
              <theme-extension> .purchasedTheme </theme-extension>
              <compiled-path>Caf\u{E9}/&#x43;ache</compiled-path>
              <schema>Schemas/Chat.xml</schema>
            </livery-configuration>
            <!-- end -->
            """
        let result = parse(xml)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(
            result.value
                == LiveryConfiguration(
                    defaultThemeID: "com.livery.d\u{E9}mo", searchPaths: ["/app/Th&emes", "/app/Down<loads>"],
                    themeExtensions: ["purchasedTheme"], schemaFiles: ["/app/Schemas/Chat.xml"],
                    compiledPaths: ["/app/Caf\u{E9}/Cache"]))
    }

    @Test func theBytesOfAValueAreKept() throws {
        // "café" in NFD: a path is bytes, and must not be normalised on the way in.
        let decomposed = "Cafe\u{301}"
        let result = parse("<livery-configuration><search-path>\(decomposed)</search-path></livery-configuration>")
        let path = try #require(result.value?.searchPaths.first)
        #expect(Array(path.utf8) == Array("/app/\(decomposed)".utf8))
    }

    @Test func malformedDocumentsAreOneLocatedError() {
        #expect(
            error("<livery-configuration><search-path>")
                == "Livery.xml:1:36 the configuration is not well-formed XML: the document ends before <search-path> is closed"
        )
        #expect(
            error("<livery-configuration>\n  <search-path>x</compiled-path>\n</livery-configuration>")
                == "Livery.xml:2:17 the configuration is not well-formed XML: </compiled-path> closes <search-path>, opened at line 2, column 3"
        )
        #expect(
            error("<livery-configuration a=\"1\" a=\"2\"/>")?.hasSuffix(
                "attribute 'a' appears twice on <livery-configuration>") == true)
        #expect(error("<livery-configuration a=1/>")?.hasSuffix("the value of attribute 'a' must be quoted") == true)
        #expect(
            error("<livery-configuration><search-path>R&D</search-path></livery-configuration>")
                == "Livery.xml:1:37 the configuration is not well-formed XML: '&' starts no reference; write '&amp;' for an ampersand"
        )
        #expect(
            error("<livery-configuration>&nbsp;</livery-configuration>")?.hasSuffix(
                "'&nbsp;' is not a predefined entity or a character reference") == true)
        #expect(
            error("<livery-configuration/><livery-configuration/>")?.hasSuffix(
                "only comments may follow the root element") == true)
        #expect(
            error("") == "Livery.xml:1:1 the configuration is not well-formed XML: the document has no root element")
        #expect(error("<livery-configuration><!-- open") != nil)
        #expect(error("<livery-configuration>&#0;</livery-configuration>") != nil)
        #expect(error("<livery-configuration>&#x110000;</livery-configuration>") != nil)
        // Invalid UTF-8 is refused, not repaired.
        let invalid = LiveryConfiguration.parse(Data([0x3C, 0x61, 0xFF, 0x3E, 0x3C, 0x2F, 0x61, 0x3E]))
        #expect(invalid.value == nil)
        #expect(
            invalid.diagnostics.map(\.message) == [
                "the configuration is not well-formed XML: the document is not valid UTF-8"
            ])
    }

    @Test func hostileDocumentsAreRefusedNotExpanded() {
        // Entity expansion ("billion laughs") and external entities need a DTD: there is none.
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
            <livery-configuration default-theme="&lol2;"/>
            """
        #expect(
            error(laughs)
                == "Livery.xml:2:1 the configuration is not well-formed XML: a document type declaration (<!DOCTYPE>) is not allowed here"
        )
        let external =
            "<!DOCTYPE c [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><livery-configuration>&x;</livery-configuration>"
        #expect(error(external)?.contains("<!DOCTYPE>") == true)
        // Deep nesting is refused at a fixed depth, without recursion.
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(error(deep)?.hasSuffix("elements are nested more than \(PlainXML.maximumDepth) deep") == true)
    }

    @Test func columnsCountCharactersNotBytes() {
        // 'é' is two bytes and one column: '=' is expected at column 42.
        #expect(
            error("<livery-configuration default-theme=\"é\" x/>")
                == "Livery.xml:1:42 the configuration is not well-formed XML: '=' is expected after attribute 'x'")
    }

    /// A configuration file read from disk: relative paths resolve against its folder, and a
    /// file that cannot be read (missing, a folder, too large) is one located error.
    @Test func aFileOnDiskIsReadOrOneLocatedError() throws {
        let folder = NSTemporaryDirectory() + "livery-configuration-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/Livery.xml"
        let xml =
            "<livery-configuration default-theme=\"com.acme.dark\"><search-path>Themes</search-path></livery-configuration>"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = LiveryConfiguration.load(path: path)
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.value?.defaultThemeID == "com.acme.dark")
        #expect(loaded.value?.searchPaths == [folder + "/Themes"])
        #expect(FileContents.bytes(atPath: path) == Array(xml.utf8))
        for unreadable in [folder + "/Missing.xml", folder] {
            let result = LiveryConfiguration.load(path: unreadable)
            #expect(result.value == nil)
            #expect(result.diagnostics.map(\.message) == ["the configuration file cannot be read"])
            #expect(result.diagnostics.first?.location?.file == unreadable)
        }
        #expect(FileContents.bytes(atPath: path, limit: xml.utf8.count - 1) == nil)
        #expect(FileContents.bytes(atPath: path, limit: xml.utf8.count) == Array(xml.utf8))
    }

    /// The folder relative paths are resolved against, as `NSString.deletingLastPathComponent`
    /// gave it before, without bridging to `NSString`.
    @Test func theFolderOfAPath() {
        let cases: [(String, String)] = [
            ("/a/b/Livery.xml", "/a/b"), ("Livery.xml", "."), ("/Livery.xml", "/"), ("a/Livery.xml", "a"),
            ("/a/b/", "/a"), ("/a//b.xml", "/a"), ("/", "/"),
        ]
        for (path, folder) in cases {
            #expect(FileContents.folder(of: path) == folder, "\(path)")
        }
    }
}
