import Foundation
import LiveryModel
import Testing

@testable import LiveryBinary

/// The verifier's rules for a font slot's typography (format 4.0): flags beyond the two defined
/// bits, a non-finite letter spacing and a negative or non-finite line height are refused at
/// open, before any value is read; the writer never stores a negative line height.
@Suite struct TypographySlotTests {
    let sample = try! ThemeWriter.encode(SampleThemes.contents)

    /// The offset of the sample's font slot with both typography numbers (the title label's).
    func typographySlot() throws -> Int {
        let theme = try CompiledTheme(bytes: sample)
        let values = try #require(theme.sections.first { $0.kind == "PARM" })
        for index in 0..<theme.valueSlotCount {
            let slot = values.offset + 8 + index * Format.valueSlotSize
            if sample[slot + 4] == ValueTag.font.rawValue, sample[slot + 15] == 3 { return slot }
        }
        Issue.record("no font slot with typography in the sample")
        throw CancellationError()
    }

    func rejection(_ change: (inout [UInt8], Int) -> Void) throws -> BinaryFormatError? {
        var bytes = sample
        change(&bytes, try typographySlot())
        return HostileBytesTests.rejected(bytes)
    }

    @Test func undefinedTypographyFlagsAreRefused() throws {
        let error = try rejection { bytes, slot in bytes[slot + 15] = 4 }
        guard case .malformed(_, let reason)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason == "typography flags are 4")
    }

    @Test func badNumbersAreRefused() throws {
        let nan = try rejection { bytes, slot in
            HostileBytesTests.put64(Double.nan.bitPattern, at: slot + 32, in: &bytes)
        }
        guard case .malformed(_, let spacing)? = nan else {
            Issue.record("\(String(describing: nan))")
            return
        }
        #expect(spacing == "font letter spacing is not finite")
        let negative = try rejection { bytes, slot in
            HostileBytesTests.put64((-1.0).bitPattern, at: slot + 40, in: &bytes)
        }
        guard case .malformed(_, let lineHeight)? = negative else {
            Issue.record("\(String(describing: negative))")
            return
        }
        #expect(lineHeight == "font line height is not a finite number of at least 0")
    }

    @Test func theWriterRefusesANegativeLineHeight() {
        var contents = SampleThemes.contents
        let key = contents.theme.variants.keys.first!
        contents.theme.variants[key]![0].operations = [
            ResolvedOperation(
                name: "font", params: [Param(name: "font", value: .font(Font(family: "A", size: 12, lineHeight: -1)))])
        ]
        #expect(throws: BinaryFormatError.unencodable("a font's line height is -1; it cannot be negative")) {
            try ThemeWriter.encode(contents)
        }
    }
}
