import Foundation
import LiveryModel
import Testing

@testable import LiveryBinary

/// Bad bytes must be rejected with a `BinaryFormatError` or read without trapping; a crash here
/// would take the whole test process down, so every loop below is also a "never traps" check.
@Suite struct HostileBytesTests {
    let sample = try! ThemeWriter.encode(SampleThemes.contents)
    let tableEnd = Format.headerSize + SectionKind.allCases.count * Format.sectionEntrySize

    /// Loads, and when the file is accepted, touches everything the reader can reach.
    @discardableResult
    static func loadAndExercise(_ bytes: [UInt8], limits: VerificationLimits = VerificationLimits())
        -> Result<CompiledTheme, BinaryFormatError>
    {
        let result = Result { () throws(BinaryFormatError) in try CompiledTheme(bytes: bytes, limits: limits) }
        if case .success(let theme) = result {
            _ = try? theme.materialize()
            for traits in [
                TraitSet.none, TraitSet(idiom: .ipad, appearance: .dark, contrast: .highcontrast),
                TraitSet(idiom: .tv, appearance: .light),
            ] {
                for id in ["button_cancel_action", "title_label", "chat_bubble", "sidebar", "a", "zz"] {
                    _ = try? theme.operations(of: id, for: traits)
                }
            }
            for asset in theme.assets { _ = theme.bytes(of: asset) }
            _ = try? theme.choiceConstants()
            for variant in 0..<theme.variantCount {
                for handle in 0..<theme.idCount + 1 {
                    _ = try? theme.choiceUses(
                        of: InstanceHandle(rawValue: UInt32(handle)), in: VariantHandle(rawValue: UInt32(variant)))
                }
            }
            _ = theme.chain
            _ = try? theme.verifyContents()
        }
        return result
    }

    static func rejected(_ bytes: [UInt8]) -> BinaryFormatError? {
        if case .failure(let error) = loadAndExercise(bytes) { return error }
        return nil
    }

    static func put32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
    }

    static func put64(_ value: UInt64, at offset: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 8, with: $0) }
    }

    /// The same sections with `BLKS` computed again: a hostile file whose block checksums match,
    /// to reach the checks behind them.
    static func withFreshBlockChecksums(_ bytes: [UInt8]) throws -> [UInt8] {
        let sections = try CompiledTheme(bytes: bytes).sections.filter { $0.rawKind != SectionKind.blocks.rawValue }
        return ThemeWriter.assemble(
            sections.map {
                (kind: $0.rawKind, required: $0.required, bytes: Array(bytes[$0.offset..<$0.offset + $0.length]))
            })
    }

    /// Re-seals the header so a test reaches the checks behind the header checksum.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let count = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 28, as: UInt32.self)) }
        let table = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 32, as: UInt64.self) }
        // a table past the end cannot be sealed; the verifier must reject it before the checksum
        guard table < UInt64(bytes.count), count <= (bytes.count - Int(table)) / Format.sectionEntrySize else {
            return bytes
        }
        put32(ThemeWriter.headerChecksum(bytes), at: Format.headerChecksumOffset, in: &bytes)
        return bytes
    }

    func entry(_ kind: SectionKind) -> Int {
        let info = try! CompiledTheme(bytes: sample).sections
        return Format.headerSize + info.firstIndex { $0.rawKind == kind.rawValue }! * Format.sectionEntrySize
    }

    func section(_ kind: SectionKind) -> SectionInfo {
        try! CompiledTheme(bytes: sample).sections.first { $0.rawKind == kind.rawValue }!
    }

    @Test func everyTruncationIsRejected() {
        for length in 0..<sample.count {
            #expect(Self.rejected(Array(sample[0..<length])) != nil, "truncated to \(length)")
        }
        #expect(
            Self.rejected(sample + [0, 0, 0, 0, 0, 0, 0, 0])
                == .trailingBytes(
                    expected: UInt64(sample.count), actual: UInt64(sample.count + 8)))
        #expect(Self.rejected([]) == .truncated(expected: 64, actual: 0))
    }

    @Test func everyBitFlipInTheHeaderAndSectionTableIsRejected() {
        for bit in 0..<tableEnd * 8 {
            var bytes = sample
            bytes[bit / 8] ^= 1 << (bit % 8)
            #expect(Self.rejected(bytes) != nil, "bit \(bit % 8) of byte \(bit / 8)")
        }
    }

    /// Past the header, a flip either trips the structural checks or is caught by the block
    /// checksums (`BLKS` covers every byte from the first section to itself, padding included;
    /// a flip inside `BLKS` makes its block's stored checksum wrong). Only the padding after
    /// `BLKS` is read by nothing. One flip per byte (a different bit each byte) keeps this quick
    /// in debug builds.
    @Test func everyBitFlipElsewhereIsRejectedOrCaughtByBlockChecksums() throws {
        let blocks = try #require(try CompiledTheme(bytes: sample).sections.last)
        var acceptedByLoad = 0
        for byte in tableEnd..<sample.count {
            let bit = byte * 8 + byte % 8
            var bytes = sample
            bytes[bit / 8] ^= 1 << (bit % 8)
            if byte >= blocks.offset + blocks.length {
                // padding after the last section: nothing reads it
                #expect(try CompiledTheme(bytes: bytes).materialize() == SampleThemes.theme)
                continue
            }
            if case .success(let theme) = Self.loadAndExercise(bytes) {
                acceptedByLoad += 1
                #expect(throws: BinaryFormatError.self, "bit \(bit % 8) of byte \(bit / 8)") {
                    try theme.verifyBlocks()
                }
                #expect(throws: BinaryFormatError.self, "bit \(bit % 8) of byte \(bit / 8)") { try theme.materialize() }
            }
        }
        #expect(acceptedByLoad > 0)  // strings, floats and digests can change without breaking structure
    }

    /// What the runtime relies on: after any flip that opening accepts, reading one instance
    /// (the lazy path, which checks only the blocks it reads) gives the instance as compiled or
    /// throws; never a wrong value. Every byte of the file, one bit each.
    @Test func aFlippedBitNeverReachesALazyRead() throws {
        let original = try CompiledTheme(bytes: sample)
        var expected: [String: [TraitSet: ResolvedInstance?]] = [:]
        let ids = (0..<original.idCount).compactMap { original.id(of: InstanceHandle(rawValue: UInt32($0))) }
        for id in ids {
            for traits in original.variantTraits {
                expected[id, default: [:]][traits] = try original.instance(id, for: traits)
            }
        }
        var caught = 0
        for byte in tableEnd..<sample.count {
            var bytes = sample
            bytes[byte] ^= 1 << (byte % 8)
            guard let theme = try? CompiledTheme(bytes: bytes) else { continue }
            for id in ids {
                for traits in original.variantTraits {
                    do {
                        let read = try theme.instance(id, for: traits)
                        // A miss is allowed only where the flip hid the id (never a wrong instance).
                        if let read { #expect(read == expected[id]![traits]!, "byte \(byte), \(id), \(traits)") }
                    } catch {
                        caught += 1
                    }
                }
            }
        }
        #expect(caught > 0)
    }

    /// Discovery's read of a file (`CompiledTheme.info(contentsOf:)`) verifies only what it
    /// reads: after any flip it returns the theme's own facts exactly or throws, never another
    /// id or name; and it does not pay for the rest of the file, so flips there that a full
    /// open refuses do not stop it.
    @Test func discoveryReadsTheFactsExactlyOrThrows() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-info-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Sample.livery").path
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        try write(sample)
        let expected = try CompiledTheme(bytes: sample).info
        #expect(try CompiledTheme.info(contentsOf: path) == expected)
        var refusedByOpenOnly = 0
        var caught = 0
        for byte in 0..<sample.count {
            var bytes = sample
            bytes[byte] ^= 1 << (byte % 8)
            try write(bytes)
            guard let info = try? CompiledTheme.info(contentsOf: path) else {
                caught += 1
                continue
            }
            #expect(info == expected, "byte \(byte)")
            if (try? CompiledTheme(bytes: bytes)) == nil { refusedByOpenOnly += 1 }
        }
        #expect(caught > 0)
        #expect(refusedByOpenOnly > 0, "flips in the instances are not discovery's business")
    }

    /// Reading one instance checks the blocks it reads, not the file: laziness, measured in blocks.
    @Test func aLookupChecksOnlyTheBlocksItReads() throws {
        let contents = CompiledThemeContents(theme: SampleThemes.wide(instances: 400))
        let theme = try CompiledTheme(bytes: ThemeWriter.encode(contents))
        #expect(theme.checkedBlockCount == 0)
        #expect(try theme.instance("wide_000123", for: .none) != nil)
        let afterOne = theme.checkedBlockCount
        #expect(afterOne > 0 && afterOne * 4 < theme.blockCount, "\(afterOne) of \(theme.blockCount) blocks")
        try theme.verifyBlocks()
        #expect(theme.checkedBlockCount == theme.blockCount)
    }

    @Test func hostileSectionOffsetsAndLengthsAreRejected() {
        let size = UInt64(sample.count)
        let hostile: [UInt64] = [
            0, size, size - 8, UInt64(Int32.max), UInt64(UInt32.max), 1 << 32, UInt64.max, UInt64.max - 7,
        ]
        for kind in SectionKind.allCases {
            let field = entry(kind)
            let info = section(kind)
            for value in hostile where value != UInt64(info.offset) {
                var bytes = sample
                Self.put64(value, at: field + 8, in: &bytes)
                #expect(Self.rejected(Self.resealed(bytes)) != nil, "\(info.kind) offset \(value)")
            }
            // lengths, including ones whose sum with the offset overflows 64 bits
            for value in hostile + [UInt64.max - UInt64(info.offset) + 1, UInt64(info.length) + 8]
            where value != UInt64(info.length) {
                var bytes = sample
                Self.put64(value, at: field + 16, in: &bytes)
                #expect(Self.rejected(Self.resealed(bytes)) != nil, "\(info.kind) length \(value)")
            }
        }
    }

    @Test func hostileFileSizeAndTableFieldsAreRejected() {
        for value: UInt64 in [0, 63, UInt64(Int32.max), UInt64(UInt32.max), UInt64.max] {
            var bytes = sample
            Self.put64(value, at: 16, in: &bytes)
            #expect(Self.rejected(Self.resealed(bytes)) != nil, "file size \(value)")
            bytes = sample
            Self.put64(value, at: 32, in: &bytes)
            #expect(Self.rejected(bytes) != nil, "table offset \(value)")
        }
        for count: UInt32 in [0, UInt32(SectionKind.allCases.count + 1), 65, UInt32(Int32.max), UInt32.max] {
            var bytes = sample
            Self.put32(count, at: 28, in: &bytes)
            #expect(Self.rejected(Self.resealed(bytes)) != nil, "section count \(count)")
        }
    }

    /// Every 32-bit word and every aligned 64-bit word of every section set to hostile values:
    /// counts, indices, offsets, lengths, tags, depths alike.
    @Test func hostileWordsInsideSectionsNeverTrap() {
        let values32: [UInt32] = [0, 1, UInt32(sample.count), UInt32(Int32.max), UInt32.max, 0x8000_0000]
        let values64: [UInt64] = [
            UInt64(sample.count), UInt64(Int32.max), UInt64(UInt32.max), UInt64.max, 0x7FF8_0000_0000_0000,
        ]
        var rejectedCount = 0
        for offset in stride(from: tableEnd, to: sample.count - 3, by: 4) {
            for value in values32 {
                var bytes = sample
                Self.put32(value, at: offset, in: &bytes)
                if Self.rejected(bytes) != nil { rejectedCount += 1 }
            }
            if offset % 8 == 0, offset + 8 <= sample.count {
                for value in values64 {
                    var bytes = sample
                    Self.put64(value, at: offset, in: &bytes)
                    if Self.rejected(bytes) != nil { rejectedCount += 1 }
                }
            }
        }
        #expect(rejectedCount > 0)
    }

    @Test func overlappingMisalignedAndDuplicateSectionsAreRejected() {
        let chain = entry(.chain)
        var overlapping = sample
        Self.put64(UInt64(section(.strings).offset + 8), at: chain + 8, in: &overlapping)
        #expect(Self.rejected(Self.resealed(overlapping))?.description.contains("overlaps") == true)

        var misaligned = sample
        Self.put64(UInt64(section(.chain).offset + 4), at: chain + 8, in: &misaligned)
        #expect(Self.rejected(Self.resealed(misaligned))?.description.contains("multiple of 8") == true)

        var duplicate = sample
        Self.put32(SectionKind.strings.rawValue, at: chain, in: &duplicate)
        #expect(Self.rejected(Self.resealed(duplicate)) == .duplicateSection(kind: "STRS", offset: chain))

        var intoHeader = sample
        Self.put64(0, at: entry(.strings) + 8, in: &intoHeader)
        #expect(Self.rejected(Self.resealed(intoHeader))?.description.contains("overlaps") == true)
    }

    /// Rebuilds the sample from its own sections, plus or minus some.
    /// (`BLKS` is left for `assemble` to compute again over the new layout.)
    func rebuilt(_ change: (inout [(kind: UInt32, required: Bool, bytes: [UInt8])]) -> Void) -> [UInt8] {
        var sections = try! CompiledTheme(bytes: sample).sections.filter { $0.rawKind != SectionKind.blocks.rawValue }
            .map {
                (kind: $0.rawKind, required: $0.required, bytes: Array(sample[$0.offset..<$0.offset + $0.length]))
            }
        change(&sections)
        return ThemeWriter.assemble(sections)
    }

    @Test func unknownOptionalSectionsAreSkippedAndUnknownRequiredOnesRejected() throws {
        let extra: UInt32 = 0x4152_5458  // "XTRA"
        let optional = rebuilt { $0.insert((extra, false, [1, 2, 3]), at: 4) }
        let theme = try CompiledTheme(bytes: optional)
        #expect(try theme.materialize() == SampleThemes.theme)
        #expect(theme.sections.contains { $0.kind == "XTRA" && !$0.known })
        try theme.verifyChecksums()

        let required = rebuilt { $0.append((extra, true, [])) }
        #expect(
            Self.rejected(required)
                == .unknownRequiredSection(
                    kind: "XTRA", offset: tableEnd - Format.sectionEntrySize))  // the entry before BLKS's

        let missing = rebuilt { $0.removeAll { $0.kind == SectionKind.variants.rawValue } }
        #expect(Self.rejected(missing) == .missingSection(kind: "VARS"))
        #expect(Self.rejected(rebuilt { $0.removeAll() }) != nil)
    }

    /// The dimension record (`VARS`): the standard dimensions first, masks within their values,
    /// slots that fit the section; each violation is refused with a located error.
    @Test func aHostileDimensionRecordIsRejected() throws {
        let vars = section(.variants).offset
        // The sample's sections with the change made, every checksum computed again.
        let sections = try CompiledTheme(bytes: sample).sections.filter { $0.rawKind != SectionKind.blocks.rawValue }
        func sealed(_ change: (inout [UInt8]) -> Void) throws -> BinaryFormatError? {
            var bytes = sample
            change(&bytes)
            return Self.rejected(
                ThemeWriter.assemble(
                    sections.map {
                        (
                            kind: $0.rawKind, required: $0.required,
                            bytes: Array(bytes[$0.offset..<$0.offset + $0.length])
                        )
                    }))
        }
        #expect(try sealed { _ in } == nil)
        let tooFew = try sealed { $0[vars] = 4 }
        #expect(tooFew?.description.contains("dimension count 4") == true)
        let swapped = try sealed { bytes in
            let first = Array(bytes[vars + 8..<vars + 12])
            bytes.replaceSubrange(vars + 8..<vars + 12, with: bytes[vars + 16..<vars + 20])
            bytes.replaceSubrange(vars + 16..<vars + 20, with: first)
        }
        #expect(swapped?.description.contains("not the standard 'idiom'") == true)
        let wideMask = try sealed { $0[vars + 8 + 4] = 0xFF }
        #expect(wideMask?.description.contains("mentions 255") == true)
        let reserved = try sealed { $0[vars + 1] = 1 }
        #expect(reserved != nil)
        let direction = vars + 8 + 4 * 8
        let moreSlots = try sealed { $0[direction + 4] = 3 }  // mentions ltr and rtl: 3x the slots
        #expect(moreSlots != nil)
    }

    @Test func otherMajorsAreRejectedFutureMinorIsRead() throws {
        var major = sample
        major[8] = 6
        #expect(Self.rejected(Self.resealed(major)) == .unsupportedVersion(major: 6, minor: 0))
        // 4.0 addressed variants by four fixed dimensions: a 5.0 layout labelled 4.0 is refused
        var four = sample
        four[8] = 4
        #expect(Self.rejected(Self.resealed(four)) == .unsupportedVersion(major: 4, minor: 0))
        // 3.0 had 40-byte value slots: a later layout labelled 3.0 is refused, never misread
        var three = sample
        three[8] = 3
        #expect(Self.rejected(Self.resealed(three)) == .unsupportedVersion(major: 3, minor: 0))
        // 2.0 had no BLKS: a later layout labelled 2.0 is refused, never read without its checksums
        var two = sample
        two[8] = 2
        #expect(Self.rejected(Self.resealed(two)) == .unsupportedVersion(major: 2, minor: 0))
        // 1.0 records began with an id handle and it had no PTCH: a later layout labelled 1.0 is refused too
        var older = sample
        older[8] = 1
        #expect(Self.rejected(Self.resealed(older)) == .unsupportedVersion(major: 1, minor: 0))
        var zero = sample
        zero[8] = 0
        #expect(Self.rejected(Self.resealed(zero)) == .unsupportedVersion(major: 0, minor: 0))

        var minor = sample
        minor[10] = 9
        let theme = try CompiledTheme(bytes: Self.resealed(minor))
        #expect(theme.formatVersion == (5, 9))
        #expect(try theme.materialize() == SampleThemes.theme)

        var requiredFlag = sample
        requiredFlag[24] = 1
        #expect(Self.rejected(Self.resealed(requiredFlag)) == .unsupportedFlags(1))
        var optionalFlag = sample
        optionalFlag[26] = 1
        #expect(try CompiledTheme(bytes: Self.resealed(optionalFlag)).materialize() == SampleThemes.theme)
    }

    // MARK: - Records and list patches (format 2)

    /// The sample's records: component, first list entry, count, end of its patches.
    func records() -> [(offset: Int, first: UInt32, count: UInt32, patchEnd: UInt32)] {
        let instances = section(.instances)
        let count = Int(sample.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: instances.offset, as: UInt32.self) })
        return (0..<count).map { index in
            let offset = instances.offset + 8 + index * Format.instanceRecordSize
            let word = { (field: Int) in
                self.sample.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + field, as: UInt32.self) }
            }
            return (offset, word(4), word(8), word(12))
        }
    }

    /// The first record with at least `patches` patches, with where its patches start.
    func patchedRecord(patches: Int = 1) -> (offset: Int, count: UInt32, patchStart: Int, patchEnd: Int) {
        let all = records()
        let index = all.indices.first { Int(all[$0].patchEnd) - ($0 == 0 ? 0 : Int(all[$0 - 1].patchEnd)) >= patches }!
        let start = index == 0 ? 0 : Int(all[index - 1].patchEnd)
        return (all[index].offset, all[index].count, start, Int(all[index].patchEnd))
    }

    @Test func theSampleStoresSomeListsAsPatches() {
        let patches = section(.listPatches)
        #expect(patches.length == 8 + 4 * Format.patchEntrySize)
        #expect(records().last?.patchEnd == 4)
        #expect(try! CompiledTheme(bytes: sample).listPatchCount == 4)
    }

    @Test func patchPositionsOutsideTheListOrOutOfOrderAreRejected() {
        let patches = section(.listPatches).offset + 8
        let record = patchedRecord()
        let entry = patches + record.patchStart * Format.patchEntrySize
        for position in [record.count, record.count + 1, UInt32(Int32.max), UInt32.max] {
            var bytes = sample
            Self.put32(position, at: entry, in: &bytes)
            #expect(Self.rejected(bytes)?.description.contains("patch position") == true, "position \(position)")
        }
        // a record's two patches swapped, then repeated: positions must increase
        let lastStart = patches + patchedRecord(patches: 2).patchStart * Format.patchEntrySize
        let first = Array(sample[lastStart..<lastStart + 8])
        let second = Array(sample[lastStart + 8..<lastStart + 16])
        var swapped = sample
        swapped.replaceSubrange(lastStart..<lastStart + 16, with: second + first)
        #expect(Self.rejected(swapped)?.description.contains("patch position") == true)
        var repeated = sample
        repeated.replaceSubrange(lastStart + 8..<lastStart + 16, with: first)
        #expect(Self.rejected(repeated)?.description.contains("patch position") == true)
    }

    @Test func patchOperationsOutOfRangeAreRejected() throws {
        let operations = try CompiledTheme(bytes: sample).operationRecordCount
        let entry = section(.listPatches).offset + 8 + patchedRecord().patchStart * Format.patchEntrySize
        for operation in [UInt32(operations), UInt32(operations + 1), UInt32(Int32.max), UInt32.max] {
            var bytes = sample
            Self.put32(operation, at: entry + 4, in: &bytes)
            #expect(
                Self.rejected(bytes)
                    == .malformed(
                        offset: entry + 4, reason: "patch names operation \(operation) of \(operations)"))
        }
        var last = sample
        Self.put32(UInt32(operations - 1), at: entry + 4, in: &last)  // any real operation is fine
        #expect(Self.rejected(last) == nil)
    }

    /// Patches tile PTCH in record order: a record cannot reach back into another's patches
    /// (sharing, or a quadratic check), past the section, or leave patches to no one.
    @Test func patchRangesCannotOverlapRunPastTheSectionOrBeOrphaned() {
        let all = records()
        let record = patchedRecord()
        for end in [UInt32(record.patchStart) &- 1, 5, 6, UInt32(Int32.max), UInt32.max] {
            var bytes = sample
            Self.put32(end, at: record.offset + 12, in: &bytes)
            #expect(Self.rejected(bytes) != nil, "patch end \(end)")
        }
        // every record that ends at the last patch ending one early: the last patch is nobody's
        var orphaned = sample
        for record in all where record.patchEnd == 4 { Self.put32(3, at: record.offset + 12, in: &orphaned) }
        #expect(Self.rejected(orphaned)?.description.contains("patches belong to no record") == true)
        // a count that claims more patches than the section holds is a length error
        var count = sample
        Self.put32(5, at: section(.listPatches).offset, in: &count)
        #expect(Self.rejected(count)?.description.contains("its counts need") == true)
    }

    /// A record's list is a range of OPLS: out of range (or overflowing u32 arithmetic) is rejected.
    @Test func recordListsOutOfRangeAreRejected() throws {
        let length = UInt32(try CompiledTheme(bytes: sample).operationListLength)
        let record = records().first!
        for (first, count) in [(length, UInt32(1)), (0, length + 1), (UInt32.max, 2), (1, UInt32.max)] {
            var bytes = sample
            Self.put32(first, at: record.offset + 4, in: &bytes)
            Self.put32(count, at: record.offset + 8, in: &bytes)
            #expect(Self.rejected(bytes)?.description.contains("runs past") == true, "\(first) + \(count)")
        }
        var component = sample
        Self.put32(UInt32.max, at: record.offset, in: &component)
        #expect(Self.rejected(component)?.description.contains("string index") == true)
    }

    @Test func aMisalignedPatchSectionIsRejected() {
        var misaligned = sample
        Self.put64(UInt64(section(.listPatches).offset + 4), at: entry(.listPatches) + 8, in: &misaligned)
        #expect(Self.rejected(Self.resealed(misaligned))?.description.contains("multiple of 8") == true)
        let missing = rebuilt { $0.removeAll { $0.kind == SectionKind.listPatches.rawValue } }
        #expect(Self.rejected(missing) == .missingSection(kind: "PTCH"))
    }

    @Test func nonFiniteFloatsAreRejected() {
        let tiny = try! ThemeWriter.encode(SampleThemes.tiny)
        let values = try! CompiledTheme(bytes: tiny).sections.first { $0.rawKind == SectionKind.values.rawValue }!
        let number = values.offset + 8 + 8  // the first slot's payload
        for bad in [Double.nan, -.nan, .signalingNaN, .infinity, -.infinity] {
            var bytes = tiny
            Self.put64(bad.bitPattern, at: number, in: &bytes)
            #expect(Self.rejected(bytes) == .malformed(offset: number, reason: "value holds a non-finite number"))
        }
        var fine = tiny
        Self.put64((-0.0).bitPattern, at: number, in: &fine)
        #expect(Self.rejected(fine) == nil)
    }

    @Test func arraysCannotLoopShareOrNestTooDeep() throws {
        let bytes = sample
        let theme = try CompiledTheme(bytes: bytes)
        let values = section(.values)
        var arraySlots: [Int] = []
        for index in 0..<theme.valueSlotCount
        where bytes[values.offset + 8 + index * Format.valueSlotSize + 4] == ValueTag.array.rawValue {
            arraySlots.append(values.offset + 8 + index * Format.valueSlotSize)
        }
        #expect(arraySlots.count == 4)
        let outer = arraySlots[0]
        var selfLoop = bytes
        Self.put32(UInt32((outer - values.offset - 8) / Format.valueSlotSize), at: outer + 8, in: &selfLoop)
        #expect(Self.rejected(selfLoop) != nil)
        var deeper = bytes
        Self.put32(99, at: outer + 16, in: &deeper)
        #expect(Self.rejected(deeper) == .limitExceeded(what: "array nesting depth", value: 99, limit: 16))
        var shallow = bytes
        Self.put32(1, at: outer + 16, in: &shallow)  // its elements hold arrays, so 1 is a lie
        #expect(Self.rejected(shallow) != nil)
        var limits = VerificationLimits()
        limits.maxArrayDepth = 2
        #expect(throws: BinaryFormatError.self) { try CompiledTheme(bytes: bytes, limits: limits) }
    }

    /// `CHOI`: nodes that name themselves or later nodes, lie about their depth, hold numbers out
    /// of range or an unknown kind; a variant count other than the file's; variant groups and
    /// entries outside their tables or out of order; uses past their instance's list or naming no
    /// node; a literal that is an array. Each is one clear error at load, never a trap.
    @Test func hostileChoiceNodesAndUsesAreRejected() throws {
        let choices = section(.choices)
        func word(_ offset: Int) -> Int { sample[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) } }
        let constants = word(choices.offset)
        let literals = choices.offset + 32 + 8 * constants
        let nodes = literals + 48 * word(choices.offset + 4)
        let nodeCount = word(choices.offset + 8)
        let variantCount = word(choices.offset + 16)
        let variants = nodes + 48 * nodeCount + 4 * word(choices.offset + 12)
        let entries = variants + 8 * variantCount
        let entryCount = word(choices.offset + 20)
        let uses = entries + 12 * entryCount
        #expect(word(choices.offset + 24) >= 2)
        // a variant whose group has two entries or more
        let grouped = try #require((0..<variantCount).first { word(variants + 8 * $0 + 4) >= 2 })
        let group = entries + 12 * word(variants + 8 * grouped)
        func node(_ kind: UInt8) -> (index: Int, offset: Int) {
            let index = (0..<nodeCount).first { sample[nodes + 48 * $0] == kind }!
            return (index, nodes + 48 * index)
        }
        func malformed(_ change: (inout [UInt8]) -> Void, _ what: String) {
            var bytes = sample
            change(&bytes)
            guard case .malformed? = Self.rejected(bytes) else {
                Issue.record("not rejected as malformed: \(what)")
                return
            }
        }
        let constant = node(2)
        let derived = node(4)
        malformed({ Self.put32(UInt32(constant.index), at: constant.offset + 12, in: &$0) }, "a node naming itself")
        malformed({ Self.put32(UInt32(nodeCount - 1), at: constant.offset + 12, in: &$0) }, "a node naming a later one")
        malformed({ $0[derived.offset + 4] = 1 }, "a derived node as shallow as its base")
        malformed(
            {
                $0[derived.offset + 4] = 0x58
                $0[derived.offset + 5] = 2
            }, "a depth past the limit")
        malformed({ Self.put64(2.0.bitPattern, at: derived.offset + 24, in: &$0) }, "an amount of 2")
        malformed({ Self.put64(Double.nan.bitPattern, at: derived.offset + 32, in: &$0) }, "a NaN alpha")
        malformed({ $0[derived.offset + 1] = 7 }, "an unknown space")
        malformed({ $0[constant.offset] = 9 }, "an unknown node kind")
        malformed({ Self.put32(999, at: constant.offset + 8, in: &$0) }, "a constant past the table")
        malformed({ $0[literals + 4] = 13 }, "a literal array")
        malformed({ Self.put32(999, at: uses, in: &$0) }, "an operation past the instance's list")
        malformed({ Self.put32(UInt32(nodeCount), at: uses + 8, in: &$0) }, "a use naming no node")
        malformed({ Self.put32(UInt32(variantCount + 1), at: choices.offset + 16, in: &$0) }, "another variant count")
        malformed(
            { Self.put32(UInt32(entryCount), at: variants + 8 * grouped + 4, in: &$0) }, "a group past the entries")
        malformed({ Self.put32(999, at: group, in: &$0) }, "an entry naming an id past the table")
        malformed({ Self.put32(UInt32(word(group)), at: group + 12, in: &$0) }, "a group's entries out of order")
        malformed({ Self.put32(999, at: group + 8, in: &$0) }, "an entry's run past the uses")
        malformed({ Self.put32(1, at: choices.offset + 24, in: &$0) }, "a count the length does not hold")
        // The section's checksum matters like every other's: a flipped literal is caught by its block.
        var flipped = sample
        flipped[literals + 9] ^= 0x10
        let theme = try CompiledTheme(bytes: flipped)
        #expect(throws: BinaryFormatError.self) { try theme.materialize() }
    }

    /// Ids whose hashes share their low bits: in a table of at most 2^bits buckets they all land in one run.
    static func collidingIDs(_ count: Int, bits: UInt64 = 10) -> [String] {
        var ids: [String] = []
        var candidate = 0
        while ids.count < count {
            let id = "id\(candidate)"
            if IDHash.hash(id) & (1 << bits - 1) == 0 { ids.append(id) }
            candidate += 1
        }
        return ids
    }

    static func theme(ids: [String]) -> CompiledThemeContents {
        CompiledThemeContents(
            theme: ThemeVariants(
                info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: TraitAxes(),
                variants: [.none: ids.sorted().map { ResolvedInstance(id: $0, component: "uiview", operations: []) }],
                assets: .empty))
    }

    @Test func aHashTableWhereEveryIdCollidesStillAnswersOrIsRejected() throws {
        let ids = Self.collidingIDs(24)
        let bytes = try ThemeWriter.encode(Self.theme(ids: ids))
        let theme = try CompiledTheme(bytes: bytes)
        #expect(theme.maxProbeLength == 24)
        for id in ids { #expect(theme.id(of: try #require(theme.handle(for: id))) == id) }
        #expect(theme.handle(for: "id-missing") == nil)
        try theme.verifyContents()

        var strict = VerificationLimits()
        strict.maxProbeLength = 8
        #expect(throws: BinaryFormatError.limitExceeded(what: "hash table probe length", value: 24, limit: 8)) {
            try CompiledTheme(bytes: bytes, limits: strict)
        }

        // a table that claims shorter probes than it needs: lookups miss, never trap, and the
        // content check names the problem
        let idTable = try #require(theme.sections.first { $0.kind == "IDTB" })
        var lying = bytes
        Self.put32(1, at: idTable.offset + 8, in: &lying)
        let liar = try CompiledTheme(bytes: lying)
        #expect(ids.filter { liar.handle(for: $0) == nil }.count == 23)
        #expect(throws: BinaryFormatError.self) { try liar.verifyContents() }

        // beyond the probe limit however large the table grows (up to 2,048 buckets): the writer refuses
        #expect(throws: BinaryFormatError.self) {
            _ = try ThemeWriter.encode(Self.theme(ids: Self.collidingIDs(40, bits: 12)))
        }
    }

    /// Shared records, operations and values are how a small file could expand enormously: the
    /// reader stops at its budget instead.
    @Test func materialisingStopsAtTheBudget() throws {
        var limits = VerificationLimits()
        limits.maxMaterializedValues = 10
        let theme = try CompiledTheme(bytes: sample, limits: limits)
        #expect(throws: BinaryFormatError.limitExceeded(what: "materialised values", value: 11, limit: 10)) {
            _ = try theme.materialize()
        }
        #expect(try theme.operations(of: "chat_bubble", for: .none) == nil)  // 2 operations, 11 values
        #expect(try theme.operations(of: "sidebar", for: TraitSet(idiom: .ipad))?.count == 1)
    }

    /// The default budget is proportional to the file (64 values per byte, at least 64 Ki, at most
    /// 16 Mi). Before, any file could expand to 16 Mi values, seconds and gigabytes.
    @Test func theDefaultBudgetIsProportionalToTheFile() throws {
        let limits = VerificationLimits()
        #expect(limits.materializationBudget(fileSize: 100) == 1 << 16)
        #expect(limits.materializationBudget(fileSize: 12_760) == 12_760 * 64)
        #expect(limits.materializationBudget(fileSize: 1 << 30) == 1 << 24)
        #expect(limits.materializationBudget(fileSize: Int.max) == 1 << 24)
        #expect(try CompiledTheme(bytes: sample).materializationBudget == max(1 << 16, sample.count * 64))
        #expect(try CompiledTheme(bytes: sample).materialize() == SampleThemes.theme)

        // 700 instances of 5 operations each (5 of 30 shared operation records, every list
        // distinct). Then every instance record is pointed at the whole operation list: 700 x 3,500
        // operations and as many values, about 4.9 Mi, from a file of 47 KB (budget 3 Mi).
        let operations = (0..<700).map { index in
            (0..<5).map { slot in
                ResolvedOperation(
                    name: "op\(slot)", state: "",
                    params: [
                        Param(
                            name: "value", value: .integer(Int64(slot < 3 ? (index / [1, 10, 100][slot]) % 10 : slot)))
                    ])
            }
        }
        let contents = CompiledThemeContents(
            theme: ThemeVariants(
                info: ThemeInfo(id: "t", name: "T"), ancestors: [], axes: TraitAxes(),
                variants: [
                    .none: (0..<700).map {
                        ResolvedInstance(id: "v\($0)", component: "uiview", operations: operations[$0])
                    }
                ],
                assets: .empty))
        var bytes = try ThemeWriter.encode(contents)
        let honest = try CompiledTheme(bytes: bytes)
        let records = try #require(honest.sections.first { $0.kind == "INST" })
        #expect(honest.instanceRecordCount == 700 && honest.operationListLength == 3_500)
        func store(_ value: Int, at offset: Int) {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        for record in 0..<700 {  // format 2.0 records: component, first, count, patch end
            store(0, at: records.offset + 8 + 16 * record + 4)
            store(3_500, at: records.offset + 8 + 16 * record + 8)
        }
        bytes = try Self.withFreshBlockChecksums(bytes)
        let theme = try CompiledTheme(bytes: bytes)  // section checksums are checked on demand only
        let budget = bytes.count * 64
        #expect(bytes.count < 64_000 && theme.materializationBudget == budget && budget < 700 * 3_500 * 2)
        #expect(
            throws: BinaryFormatError.limitExceeded(
                what: "materialised values", value: UInt64(budget) + 1, limit: UInt64(budget))
        ) {
            _ = try theme.materialize()
        }
        #expect(try theme.operations(of: "v1", for: .none)?.count == 3_500)  // one instance is within the budget
    }

    @Test func errorsSayWhereTheyAre() {
        var bytes = sample
        bytes[0] = 0
        #expect(Self.rejected(bytes)?.description == "not a compiled Livery theme (bad magic at offset 0)")
        #expect(
            Self.rejected(Array(sample[0..<1000]))?.description
                == "file is truncated: 1000 bytes, expected \(sample.count)")
        #expect(
            Self.rejected(Array(sample[0..<100]))?.description == "file is truncated: 100 bytes, expected \(tableEnd)")
    }
}
