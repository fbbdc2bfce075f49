import LiveryModel
import Testing

@testable import LiveryBinary

/// Every on-disk code against a literal table, keyed by the case's name: reordering, sorting or
/// extending a model enum must leave these bytes alone (the golden file test catches the rest).
/// A change here is a change of the file format and needs a version bump.
@Suite struct DiskCodeTests {
    static let idioms = ["iphone": 1, "ipad": 2, "tv": 3, "mac": 4, "watch": 5, "car": 6, "vision": 7]
    static let appearances = ["light": 1, "dark": 2]
    static let contrasts = ["highcontrast": 1]
    static let textSizes = ["largetext": 1]
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

    @Test func traitAndFontCodesAreTheWrittenDownTable() {
        check(Self.idioms, DiskCodes.idioms, \.diskCode)
        check(Self.appearances, DiskCodes.appearances, \.diskCode)
        check(Self.contrasts, DiskCodes.contrasts, \.diskCode)
        check(Self.textSizes, DiskCodes.textSizes, \.diskCode)
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

    /// One block of variant slots is the product of the trait code counts; 48 is in every file.
    @Test func variantSlotCountIsTheProductOfTheTraitCodes() {
        #expect(Format.variantSlotCount == 48)
        #expect(
            Format.variantSlotCount == TraitCodes.idiomCodes * TraitCodes.appearanceCodes * TraitCodes.contrastCodes)
        #expect(TraitCodes.textSizeCodes == 2)
        #expect(TraitCodes.idiomMaskBits == 0x7F)
        #expect(TraitCodes.appearanceMaskBits == 0x03)
    }

    /// Masks put each value at bit `code - 1`, and every slot reads back as its trait set.
    @Test func masksAndSlotsFollowTheCodes() {
        let axes = TraitAxes(idioms: [.ipad, .vision], appearances: [.dark], contrasts: [.highcontrast], textSizes: [])
        let (idioms, appearances, contrasts, textSizes) = TraitCodes.masks(axes)
        #expect(idioms == 0b100_0010)
        #expect(appearances == 0b10)
        #expect(contrasts == 1)
        #expect(textSizes == 0)
        #expect(TraitCodes.axes(idioms: idioms, appearances: appearances, contrasts: contrasts, textSizes: 0) == axes)
        let traits = TraitSet(idiom: .mac, appearance: .dark, contrast: .highcontrast, textSize: .largetext)
        #expect(TraitCodes.slot(traits) == 48 + (4 * 3 + 2) * 2 + 1)
        for slot in 0..<(2 * Format.variantSlotCount) {
            #expect(TraitCodes.slot(TraitCodes.traits(slot: slot)) == slot)
        }
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
