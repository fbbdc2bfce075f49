import LiveryModel
import Testing

/// Format 1.2, section 8 in the model: letter spacing and line height, given apart from absent,
/// under the text scale, and in the canonical JSON.
@Suite struct TypographyTests {
    static let empty = ResolvedTheme(info: ThemeInfo(id: "t", name: "T"), traits: .none, instances: [], assets: .empty)

    static func dumped(_ font: Font, textScale: Double = 1) -> String {
        CanonicalJSON.value(.font(font), theme: empty, scale: 1, textScale: textScale).rendered(pretty: false)
    }

    @Test func givenAndAbsentDifferEvenAtZero() {
        let absent = Font(family: "A", size: 12)
        let zero = Font(family: "A", size: 12, letterSpacing: 0, lineHeight: 0)
        #expect(absent != zero)
        #expect(absent.letterSpacing == nil && absent.lineHeight == nil)
        #expect(zero.letterSpacing == 0 && zero.lineHeight == 0)
    }

    /// Letter spacing grows with the applied size (applied / size); line height stays a multiple.
    @Test func letterSpacingFollowsTheAppliedSize() {
        let font = Font(family: "A", size: 20, maxSize: 30, letterSpacing: -0.5, lineHeight: 1.2)
        #expect(font.appliedLetterSpacing(textScale: 1) == -0.5)
        #expect(font.appliedLetterSpacing(textScale: 1.25) == -0.625)
        #expect(font.appliedLetterSpacing(textScale: 2) == -0.75, "capped with the size at max-size 30")
        #expect(font.appliedLetterSpacing(textScale: 0.5) == -0.25)
        let applied = font.applied(textScale: 2)
        #expect(applied.size == 30 && applied.letterSpacing == -0.75 && applied.lineHeight == 1.2)
        #expect(font.applied(textScale: 1) == font)
    }

    @Test func fixedAndUnsizedFontsKeepBothAsWritten() {
        let fixed = Font(family: "A", size: 11, scaling: .fixed, letterSpacing: 0.5, lineHeight: 1.5)
        #expect(fixed.applied(textScale: 3) == fixed)
        let unsized = Font(family: "A", size: nil, letterSpacing: 1, lineHeight: 1.4)
        #expect(unsized.applied(textScale: 3) == unsized)
        let none = Font(family: "A", size: 12)
        #expect(none.appliedLetterSpacing(textScale: 2) == nil)
        #expect(Font(family: "A", size: 12, letterSpacing: 0).appliedLetterSpacing(textScale: 2) == 0)
    }

    /// Canonical JSON: the members only where given (0 included), spacing at the dumped scale.
    @Test func canonicalJSONHasTheMembersOnlyWhereGiven() {
        #expect(Self.dumped(Font(family: "A", size: 12)) == #"{"font":{"family":"A","size":12,"weight":"regular"}}"#)
        #expect(
            Self.dumped(Font(family: "A", size: 12, letterSpacing: 0, lineHeight: 0))
                == #"{"font":{"family":"A","size":12,"weight":"regular","letterSpacing":0,"lineHeight":0}}"#)
        #expect(
            Self.dumped(Font(family: "A", size: 20, maxSize: 30, letterSpacing: -0.5, lineHeight: 1.2), textScale: 2)
                == #"{"font":{"family":"A","size":30,"weight":"regular","maxSize":30,"letterSpacing":-0.75,"lineHeight":1.2}}"#
        )
        #expect(
            Self.dumped(Font(family: "A", size: nil, lineHeight: 1.5), textScale: 2)
                == #"{"font":{"family":"A","size":null,"weight":"regular","lineHeight":1.5}}"#)
    }

    @Test func valueTextShowsBoth() {
        #expect(
            ValueText.describe(
                .font(Font(family: "Inter", size: 20, weight: .bold, letterSpacing: -0.5, lineHeight: 1.2)))
                == "Inter 20 bold spacing -0.5 line-height 1.2")
        #expect(
            ValueText.describe(.font(Font(family: "Inter", size: 12, letterSpacing: 0))) == "Inter 12 regular spacing 0"
        )
        #expect(ValueText.describe(.font(Font(family: "Inter", size: 12))) == "Inter 12 regular")
    }
}
