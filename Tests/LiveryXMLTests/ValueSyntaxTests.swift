import LiveryModel
import Testing

@testable import LiveryXML

@Suite struct ValueSyntaxTests {
    @Test(arguments: ["8", "-0.5", " 12 ", "1e3", "1.5E-2", "0", "-0", "\n 3.25\t"])
    func acceptsFloats(_ text: String) throws {
        #expect(throws: Never.self) { try ValueSyntax.float(text).get() }
    }

    @Test(arguments: [
        "NaN", "nan", "inf", "-inf", "Infinity", "1e309", "-1e309", "0x1p3", "1,5", ".5", "5.", "+1",
        "1e", "1e+", "", " ", "1 2", "--1", "1.2.3", "٣", "１",
    ])
    func rejectsFloats(_ text: String) {
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.float(text).get() }
    }

    @Test func floatValues() throws {
        #expect(try ValueSyntax.float(" 1.5e3 ").get() == 1500)
        #expect(try ValueSyntax.float("-0.25").get() == -0.25)
    }

    @Test func integersAre64Bit() throws {
        #expect(try ValueSyntax.integer("9223372036854775807").get() == Int64.max)
        #expect(try ValueSyntax.integer(" -9223372036854775808 ").get() == Int64.min)
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.integer("9223372036854775808").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.integer("1.0").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.integer("").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.integer("-").get() }
    }

    @Test func bools() throws {
        #expect(try ValueSyntax.bool(" true").get() == true)
        #expect(try ValueSyntax.bool("false").get() == false)
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.bool("TRUE").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.bool("1").get() }
    }

    @Test func hexColors() throws {
        #expect(try ValueSyntax.color("#F00", format: nil).get().hexString == "#FF0000FF")
        #expect(try ValueSyntax.color("#ff3b30", format: "hex").get().hexString == "#FF3B30FF")
        #expect(try ValueSyntax.color(" #11223344 ", format: nil).get().hexString == "#11223344")
        for bad in ["FF0000", "#FF00", "#GG0000", "#FF00000", "#", "#１２３"] {
            #expect(throws: ValueSyntax.Problem.self, "\(bad)") { try ValueSyntax.color(bad, format: nil).get() }
        }
    }

    @Test func rgbColors() throws {
        #expect(try ValueSyntax.color("1.0,0.0,0.0", format: "rgb").get().hexString == "#FF0000FF")
        #expect(try ValueSyntax.color("0, 0.5 ,1, 0.5", format: "rgba").get().hexString == "#0080FF80")
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.color("1,0,0,1", format: "rgb").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.color("1,0", format: "rgb").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.color("255,0,0", format: "rgb").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.color("#FFF", format: "cmyk").get() }
    }

    @Test func geometry() throws {
        #expect(try ValueSyntax.point("-1, 2").get() == Point(x: -1, y: 2))
        #expect(try ValueSyntax.size("3,4").get() == Size(width: 3, height: 4))
        #expect(try ValueSyntax.rect("1, 2, 3, 4").get() == Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(try ValueSyntax.insets("1,2,3,4").get() == Insets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(try ValueSyntax.rect("-1,-2,3,4").get().x == -1)
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.size("-1,2").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.rect("0,0,-3,4").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.rect("0,0,3").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.point("1;2").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.insets("1,2,3,NaN").get() }
    }

    @Test func fonts() throws {
        let font = try ValueSyntax.font(family: "Helvetica", size: "17", weight: "semibold").get()
        #expect(font == Font(family: "Helvetica", size: 17, weight: .semibold))
        #expect(try ValueSyntax.font(family: "Menlo", size: nil, weight: nil).get().weight == .regular)
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.font(family: nil, size: "12", weight: nil).get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.font(family: "A", size: "0", weight: nil).get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.font(family: "A", size: "-3", weight: nil).get() }
        #expect(throws: ValueSyntax.Problem.self) {
            try ValueSyntax.font(family: "A", size: "12", weight: "extrabold").get()
        }
    }

    /// Format 1.1, 7.2: `max-size` (> 0, not smaller than `size`) and `scaling` (scaled or fixed).
    @Test func fontMaxSizeAndScaling() throws {
        let font = try ValueSyntax.font(family: "A", size: "17", weight: nil, maxSize: " 28 ", scaling: "fixed").get()
        #expect(font == Font(family: "A", size: 17, maxSize: 28, scaling: .fixed))
        #expect(try ValueSyntax.font(family: "A", size: "17", weight: nil, maxSize: "17").get().maxSize == 17)
        #expect(try ValueSyntax.font(family: "A", size: nil, weight: nil, maxSize: "30").get().maxSize == 30)
        #expect(try ValueSyntax.font(family: "A", size: "17", weight: nil).get().scaling == nil, "absent stays absent")
        func problem(_ maxSize: String?, _ scaling: String? = nil) -> String? {
            if case .failure(let problem) = ValueSyntax.font(
                family: "A", size: "17", weight: nil, maxSize: maxSize, scaling: scaling)
            {
                return problem.message
            }
            return nil
        }
        #expect(problem("12") == "max-size 12 is smaller than size 17; give a max-size of at least the size")
        #expect(problem("0") == "a font's max-size must be greater than 0, found '0'")
        #expect(problem("big")?.hasPrefix("max-size: 'big' is not a number") == true)
        #expect(problem(nil, "dynamic") == "unknown font scaling 'dynamic'; use scaled (the default) or fixed")
        #expect(problem("20", "scaled") == nil)
    }

    /// Format 1.2, section 8: `letter-spacing` (any finite number) and `line-height` (>= 0),
    /// each kept apart from absent even when 0.
    @Test func fontLetterSpacingAndLineHeight() throws {
        func font(_ spacing: String?, _ lineHeight: String?) -> ValueSyntax.Parsed<Font> {
            ValueSyntax.font(family: "A", size: "17", weight: nil, letterSpacing: spacing, lineHeight: lineHeight)
        }
        #expect(try font(" -0.4 ", "1.25").get() == Font(family: "A", size: 17, letterSpacing: -0.4, lineHeight: 1.25))
        #expect(try font("0", "0").get() == Font(family: "A", size: 17, letterSpacing: 0, lineHeight: 0))
        #expect(try font(nil, nil).get() == Font(family: "A", size: 17), "absent stays absent")
        #expect(try font("2", nil).get().lineHeight == nil)
        #expect(
            try ValueSyntax.font(family: "A", size: nil, weight: nil, letterSpacing: "1", lineHeight: "1.5").get()
                == Font(family: "A", size: nil, letterSpacing: 1, lineHeight: 1.5))
        func problem(_ spacing: String?, _ lineHeight: String?) -> String? {
            if case .failure(let problem) = font(spacing, lineHeight) { return problem.message }
            return nil
        }
        #expect(
            problem(nil, "-1")
                == "a font's line-height is a multiple of its size and cannot be negative, found '-1'; use e.g. 1.2, or leave it out for the platform's default"
        )
        #expect(problem(nil, "normal")?.hasPrefix("line-height: 'normal' is not a number") == true)
        #expect(problem("wide", nil)?.hasPrefix("letter-spacing: 'wide' is not a number") == true)
        #expect(problem("NaN", nil)?.hasPrefix("letter-spacing: ") == true)
        #expect(problem("0x1p3", nil)?.hasPrefix("letter-spacing: ") == true)
        #expect(problem("1e309", nil)?.hasPrefix("letter-spacing: ") == true)
        #expect(problem("", nil)?.hasPrefix("letter-spacing: ") == true)
        #expect(problem("-3", "0") == nil, "negative spacing is allowed")
    }

    @Test func enumsAndAssetNames() throws {
        #expect(try ValueSyntax.enumeration(" center ").get() == "center")
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.enumeration("2x").get() }
        #expect(throws: ValueSyntax.Problem.self) { try ValueSyntax.enumeration("a-b").get() }
        #expect(try ValueSyntax.assetName("icons/send").get() == "icons/send")
        for bad in ["../secret", "/etc/passwd", "a/../../b", "", "a//b", "a\\b", "./a"] {
            #expect(throws: ValueSyntax.Problem.self, "\(bad)") { try ValueSyntax.assetName(bad).get() }
        }
    }

    @Test func qualifiedFileNames() throws {
        let asset = try QualifiedFileName.parse("bubble@2x~iPad.png")
        #expect(asset.base == "bubble" && asset.scale == 2 && asset.qualifiers == TraitSet(idiom: .ipad))
        let reversed = try QualifiedFileName.parse("bubble~ipad@3x.png")
        #expect(reversed.base == "bubble" && reversed.scale == 3)
        let file = try QualifiedFileName.parse("Chat~ipad~dark.xml")
        #expect(file.base == "Chat" && file.qualifiers == TraitSet(idiom: .ipad, appearance: .dark))
        #expect(throws: QualifiedFileName.Problem.self) { try QualifiedFileName.parse("Chat~tablet.xml") }
        #expect(throws: QualifiedFileName.Problem.self) { try QualifiedFileName.parse("Chat~light~dark.xml") }
        #expect(throws: QualifiedFileName.Problem.self) { try QualifiedFileName.parse("a@2x@3x.png") }
    }
}
