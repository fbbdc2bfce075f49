import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// Every `FrontEndLimits` field, lowered so a tiny theme exceeds it: each must give exactly one
/// error, at the place where the input went over. (AttackTests covers the defaults with big input.)
@Suite struct LimitTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var limits: @Sendable (inout FrontEndLimits) -> Void
        var files: [String: String]
        /// The one error expected, relative to the temporary folder.
        var error: String
        var testDescription: String { name }
    }

    static let info = #"<theme-info id="limit.theme" name="Limit"/>"#

    static func theme(_ chat: String, extra: [String: String] = [:]) -> [String: String] {
        ["T.theme/Info.xml": info, "T.theme/Chat.xml": chat].merging(extra) { $1 }
    }

    static let alpha = #"<operation name="alpha"><param name="value"><float>1</float></param></operation>"#
    static let image =
        #"<theme><instances><uiimageview id="v"><operation name="image"><param name="image"><image>a</image></param></operation></uiimageview></instances></theme>"#

    static let cases: [Case] = [
        Case(
            name: "maxFileBytes", limits: { $0.maxFileBytes = 64 },
            files: theme("<theme><instances><uiview id=\"v\">\(alpha)</uiview></instances></theme>"),
            error:
                "T.theme/Chat.xml: error: the file is larger than 64 bytes, the limit for a theme file [file-unreadable]"
        ),
        Case(
            name: "maxFilesPerTheme", limits: { $0.maxFilesPerTheme = 2 },
            files: theme("<theme/>", extra: ["T.theme/Other.xml": "<theme/>"]),
            error: "T.theme: error: the theme has 3 entries; at most 2 are read [file-ignored]"),
        Case(
            name: "maxAssetsPerTheme", limits: { $0.maxAssetsPerTheme = 1 },
            files: theme("<theme/>", extra: ["T.theme/assets/a.png": "a", "T.theme/assets/b.png": "b"]),
            error:
                "T.theme/assets/b.png: error: more than 1 asset files and folders; the rest are ignored [file-ignored]"),
        Case(
            name: "maxAssetBytes", limits: { $0.maxAssetBytes = 4 },
            files: theme(image, extra: ["T.theme/assets/a.png": "12345"]),
            error:
                "T.theme/assets/a.png: error: asset 'assets/a.png' is 5 bytes; an asset file is at most 4 bytes [limit-exceeded]"
        ),
        Case(
            name: "maxTotalAssetBytes", limits: { $0.maxTotalAssetBytes = 6 },
            files: theme(image, extra: ["T.theme/assets/a.png": "1234", "T.theme/assets/b.png": "1234"]),
            error:
                "T.theme/assets/b.png: error: the theme's assets exceed 6 bytes together; the rest are ignored [limit-exceeded]"
        ),
        Case(
            name: "maxElementDepth", limits: { $0.maxElementDepth = 3 },
            files: theme("<theme><instances><uiview id=\"v\">\(alpha)</uiview></instances></theme>"),
            error:
                "T.theme/Chat.xml:1:34: error: elements nest more than 3 deep; a theme needs far fewer [limit-exceeded]"
        ),
        Case(
            name: "maxNameBytes (element)", limits: { $0.maxNameBytes = 10 },
            files: theme("<theme><instances><uinavigationbar id=\"v\"/></instances></theme>"),
            error:
                "T.theme/Chat.xml:1:19: error: an element name of 15 bytes; names are at most 10 bytes [limit-exceeded]"
        ),
        Case(
            name: "maxNameBytes (attribute)", limits: { $0.maxNameBytes = 10 },
            files: theme("<theme><constants/><classes><class name=\"c\" attribute1x=\"x\"/></classes></theme>"),
            error:
                "T.theme/Chat.xml:1:29: error: an attribute name of 11 bytes; names are at most 10 bytes [limit-exceeded]"
        ),
        Case(
            name: "maxAttributeValueBytes", limits: { $0.maxAttributeValueBytes = 11 },
            files: theme("<theme><instances><uiview id=\"abcdefghijkl\"/></instances></theme>"),
            error:
                "T.theme/Chat.xml:1:19: error: attribute 'id' has a value of 12 bytes; at most 11 are allowed [limit-exceeded]"
        ),
        Case(
            name: "maxAttributesPerElement", limits: { $0.maxAttributesPerElement = 2 },
            files: theme("<theme><instances><uiview id=\"v\" class=\"c\" x=\"y\"/></instances></theme>"),
            error:
                "T.theme/Chat.xml:1:19: error: an element with 3 or more attributes; at most 2 are allowed [limit-exceeded]"
        ),
        Case(
            name: "maxTextBytes", limits: { $0.maxTextBytes = 4 },
            files: theme(#"<theme><constants><string name="s">hello</string></constants></theme>"#),
            error:
                "T.theme/Chat.xml:1:19: error: the text in this element is longer than 4 bytes, the limit for one value [limit-exceeded]"
        ),
        Case(
            name: "maxInstances (over two files)", limits: { $0.maxInstances = 2 },
            files: [
                "T.theme/Info.xml": info,
                "T.theme/A.xml": #"<theme><instances><uiview id="a"/><uiview id="b"/></instances></theme>"#,
                "T.theme/B.xml": "<theme><instances>\n<uiview id=\"c\"/></instances></theme>",
            ],
            error:
                "T.theme/B.xml:2:1: error: the theme has more than 2 instances; this one is past the limit [limit-exceeded]"
        ),
        Case(
            name: "maxOperationsPerInstance", limits: { $0.maxOperationsPerInstance = 1 },
            files: theme("<theme><instances><uiview id=\"v\">\(alpha)\n\(alpha)</uiview></instances></theme>"),
            error:
                "T.theme/Chat.xml:2:1: error: <uiview> has 2 operations; at most 1 are allowed in one element [limit-exceeded]"
        ),
        Case(
            name: "maxOperationsPerInstance (classes)", limits: { $0.maxOperationsPerInstance = 1 },
            files: theme("<theme><classes><class name=\"c\">\(alpha)\n\(alpha)</class></classes></theme>"),
            error:
                "T.theme/Chat.xml:2:1: error: <class> has 2 operations; at most 1 are allowed in one element [limit-exceeded]"
        ),
        Case(
            name: "maxArrayLength", limits: { $0.maxArrayLength = 2 },
            files: theme(
                #"<theme><constants><array name="a"><bool>true</bool><bool>true</bool><bool>true</bool></array></constants></theme>"#
            ),
            error: "T.theme/Chat.xml:1:69: error: an array of 3 elements; at most 2 are allowed [limit-exceeded]"),
        Case(
            name: "maxArrayDepth", limits: { $0.maxArrayDepth = 1 },
            files: theme(#"<theme><constants><array name="a"><array/></array></constants></theme>"#),
            error: "T.theme/Chat.xml:1:35: error: arrays nest more than 1 deep; flatten this value [limit-exceeded]"),
    ]

    @Test(arguments: cases)
    func exceedingALimitIsOneLocatedError(_ limit: Case) throws {
        let themes = try TemporaryThemes(limit.files)
        var limits = FrontEndLimits()
        limit.limits(&limits)
        let diagnostics = ThemeWorkspace(limits: limits).validate(paths: [themes.theme("T.theme")])
        let errors = diagnostics.filter { $0.severity == .error }
            .map { $0.description.replacingOccurrences(of: themes.path + "/", with: "") }
        #expect(errors.contains(limit.error), "expected:\n\(limit.error)\nprinted:\n\(errors.joined(separator: "\n"))")
        // Limits lead to no cascade, except what the dropped input obviously causes (the image
        // whose only asset was refused).
        let others = errors.filter { $0 != limit.error && !$0.hasSuffix("[asset-missing]") }
        #expect(others.isEmpty, "unexpected: \(others)")
        // The same theme is fine with the default limits.
        let relaxed = ThemeWorkspace().validate(paths: [themes.theme("T.theme")])
        #expect(
            !relaxed.contains { $0.code == .limitExceeded || $0.code == .fileUnreadable || $0.code == .fileIgnored })
    }

    /// libxml2 reports error after error, each following from the first: only the first is
    /// reported (one finding per cause).
    @Test func onlyTheFirstXMLErrorOfAFileIsReported() throws {
        let broken = "<theme>" + String(repeating: "<a></b>\n", count: 30)
        let themes = try TemporaryThemes(Self.theme(broken))
        let errors = ThemeWorkspace().validate(paths: [themes.theme("T.theme")]).filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.xmlSyntax], "\(errors)")
        #expect(errors.first?.message == "</b> does not close the open <a>; add </a> before it, or correct the end tag")
    }

    /// libxml2 warnings keep coming after errors stop; past `maxXMLErrorsPerFile` parsing stops
    /// with one more finding.
    @Test func xmlWarningsPerFileAreCapped() throws {
        let warned = "<theme>" + (0..<30).map { "<a xmlns=\"relative\($0)\"/>\n" }.joined() + "</theme>"
        let themes = try TemporaryThemes(Self.theme(warned))
        var limits = FrontEndLimits()
        limits.maxXMLErrorsPerFile = 10
        let found = ThemeWorkspace(limits: limits).validate(paths: [themes.theme("T.theme")])
        #expect(found.filter { $0.code == .xmlSyntax && $0.severity == .warning }.count == 10, "\(found)")
        let stops = found.filter { $0.code == .limitExceeded }
        #expect(stops.map(\.message) == ["more than 10 XML errors in this file; the rest is not read"])
        let all = ThemeWorkspace().validate(paths: [themes.theme("T.theme")])
        #expect(!all.contains { $0.code == .limitExceeded })
    }

    @Test func defaultsAreDocumentedValues() {
        let limits = FrontEndLimits.default
        #expect(limits.maxFileBytes == 64 << 20)
        #expect(limits.maxElementDepth == 32)
        #expect(limits.maxArrayDepth == 16)
        #expect(limits.maxTextBytes == 1 << 20)
    }

    @Test func fileSizeLimitIsClampedToWhatOffsetsHold() {
        var limits = FrontEndLimits()
        limits.maxFileBytes = Int.max
        #expect(limits.maxFileBytes < Int(Int32.max))
    }

    /// A theme that sits exactly at every lowered limit is accepted: the limits are "at most".
    @Test func inputExactlyAtTheLimitsIsAccepted() throws {
        let themes = try TemporaryThemes(
            Self.theme(
                #"<theme><instances><uiview id="v"><operation name="alpha"><param name="value"><float>1</float></param></operation></uiview></instances></theme>"#
            ))
        var limits = FrontEndLimits()
        limits.maxElementDepth = 6
        limits.maxNameBytes = 10
        limits.maxAttributesPerElement = 2
        limits.maxAttributeValueBytes = 11
        limits.maxTextBytes = 1
        limits.maxInstances = 1
        limits.maxOperationsPerInstance = 1
        let diagnostics = ThemeWorkspace(limits: limits).validate(paths: [themes.theme("T.theme")])
        #expect(!diagnostics.hasErrors, "\(diagnostics.map(\.description))")
    }
}
