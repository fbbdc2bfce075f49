import LiveryModel
import Testing

@testable import LiveryBinary

/// Every on-disk code against a literal table, keyed by the case's name: reordering, sorting or
/// extending a model enum must leave these bytes alone (the golden file test catches the rest).
/// A change here is a change of the file format and needs a version bump. Trait values have no
/// codes of their own: a file records its dimensions by name (`VARS`).
@Suite struct DiskCodeTests {
    static let fontWeights = [
        "ultralight": 0, "thin": 1, "light": 2, "regular": 3, "medium": 4, "semibold": 5, "bold": 6, "heavy": 7,
        "black": 8,
    ]
    static let fontScalings = ["scaled": 1, "fixed": 2]

    /// Every case has the listed code, every listed name is a case, and the table reads back.
    func check<Value: CaseIterable & Hashable & RawRepresentable & Sendable>(
        _ literal: [String: Int], _ table: DiskCodeTable<Value>, _ code: (Value) -> UInt8
    ) where Value.RawValue == String {
        #expect(Set(Value.allCases.map(\.rawValue)) == Set(literal.keys), "\(Value.self): a case without a code")
        for value in Value.allCases {
            #expect(Int(code(value)) == literal[value.rawValue], "\(Value.self).\(value.rawValue)")
            #expect(table.value(Int(code(value))) == value)
        }
        #expect(table.codeCount == literal.values.max()! + 1)
    }

    @Test func fontCodesAreTheWrittenDownTable() {
        check(Self.fontWeights, DiskCodes.fontWeights, \.diskCode)
        check(Self.fontScalings, DiskCodes.fontScalings, \.diskCode)
    }

    @Test func valueTagsAreTheWrittenDownTable() {
        let literal: [ValueTag: UInt8] = [
            .float: 1, .integer: 2, .bool: 3, .string: 4, .color: 5, .point: 6, .size: 7, .rect: 8, .insets: 9,
            .font: 10, .image: 11, .enumeration: 12, .array: 13,
        ]
        #expect(literal.count == ValueTag.allCases.count)
        for tag in ValueTag.allCases { #expect(tag.rawValue == literal[tag], "\(tag)") }
    }

    /// Slots are numbered in mixed radix over the values a theme mentions, first dimension
    /// slowest: exactly one slot per canonical trait set, and every slot reads back as its set.
    @Test func slotsNumberTheCanonicalTraitSets() throws {
        let axes = TraitAxes(
            idioms: [.ipad, .vision], appearances: [.dark], contrasts: [.highcontrast], directions: [.rtl])
        let addressing = try #require(VariantAddressing(dimensions: .standard, axes: axes))
        #expect(addressing.slotCount == 3 * 2 * 2 * 2)
        #expect(addressing.slotCount == axes.traitSets.count)
        #expect(axes.traitSets.map(addressing.slot) == Array(0..<addressing.slotCount))
        for slot in 0..<addressing.slotCount { #expect(addressing.slot(addressing.traits(slot: slot)) == slot) }
        // vision is the second idiom mentioned: digit 2; values the theme never mentions drop.
        let traits = TraitSet(idiom: .vision, appearance: .light, contrast: .highcontrast, textSize: .largetext)
        #expect(addressing.slot(traits) == 2 * 8 + 0 * 4 + 1 * 2)
        #expect(addressing.traits(slot: addressing.slot(traits)) == axes.canonical(traits))
        #expect(VariantAddressing(dimensions: .standard, axes: .all, limit: 100) == nil)
    }

    /// A font's weight and scaling bytes in a written slot, read from the bytes themselves.
    @Test func aFontSlotCarriesTheTableCodes() throws {
        let font = Font(family: "Inter", size: 14, weight: .semibold, scaling: .fixed)
        var contents = SampleThemes.tiny
        contents.theme.variants[.none] = [
            ResolvedInstance(
                id: "a", component: "uilabel",
                operations: [ResolvedOperation(name: "font", params: [Param(name: "value", value: .font(font))])])
        ]
        let bytes = try ThemeWriter.encode(contents)
        let theme = try CompiledTheme(bytes: bytes)
        let values = try #require(theme.sections.first { $0.kind == "PARM" })
        let slots = (0..<theme.valueSlotCount).map { values.offset + 8 + $0 * Format.valueSlotSize }
        let slot = try #require(slots.first { bytes[$0 + 4] == 10 })  // the font tag
        #expect(bytes[slot + 12] == 5)  // semibold
        #expect(bytes[slot + 13] == 2)  // fixed
        #expect(try theme.materialize().variants[.none]?.first?.operations.first?.params.first?.value == .font(font))
    }
}
