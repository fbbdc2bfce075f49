// The integrity checks beyond the verifier's: section checksums, blocks, UTF-8 and id placement.
import LiveryModel

extension CompiledTheme {
    /// Checks every section's CRC-32 (the section table's checksums). A pass over the whole
    /// file: `livery inspect` and `compile --verify` run it; the runtime relies on the blocks.
    public func verifyChecksums() throws(BinaryFormatError) {
        for section in layout.sections
        where CRC32.checksum(raw.buffer(section.offset, section.length)) != section.checksum {
            throw .sectionChecksumMismatch(kind: section.kind, offset: section.offset)
        }
    }

    /// Checks every block of `BLKS` not checked yet (a pass over the file the first time).
    public func verifyBlocks() throws(BinaryFormatError) {
        try blocks.checkAll()
    }

    /// Checks the blocks of what discovery and images read besides instances: the parent chain,
    /// the variant table, the asset directory and their strings. Small, whatever the theme's size.
    public func verifyMetadata() throws(BinaryFormatError) {
        try blocks.withLock { () throws(BinaryFormatError) in
            let (chainStart, chainLength) = Verifier.section(layout, .chain)
            try blocks.check(chainStart, chainLength)
            let (variantStart, _) = Verifier.section(layout, .variants)
            try blocks.check(variantStart, layout.variantRows - variantStart)
            let (assetStart, assetLength) = Verifier.section(layout, .assets)
            try blocks.check(assetStart, assetLength)
            for index in 0..<layout.chainCount {
                let entry = layout.chainEntries + index * Format.chainEntrySize
                for field in 0..<5 where raw.u32(entry + 4 * field) != Format.none {
                    _ = try checkedString(raw.u32(entry + 4 * field))
                }
            }
            for index in 0..<layout.searchOrderCount { _ = try checkedString(raw.u32(layout.searchOrder + 4 * index)) }
            for index in 0..<layout.assetCount {
                let record = layout.assetRecords + index * Format.assetRecordSize
                for field in 0..<3 { _ = try checkedString(raw.u32(record + 4 * field)) }
            }
        }
    }

    /// Checksums plus what checksums cannot vouch for in a hand-made file: strings are UTF-8,
    /// and every id is found by its own hash within the probe limit (and only once).
    public func verifyContents() throws(BinaryFormatError) {
        try verifyChecksums()
        try verifyBlocks()
        for index in 0..<layout.stringCount where !Self.isValidUTF8(stringBuffer(UInt32(index))) {
            throw .malformed(offset: layout.stringOffsets + 4 * index, reason: "string \(index) is not valid UTF-8")
        }
        for handle in 0..<layout.idCount {
            let field = layout.idStrings + 4 * handle
            let id = string(raw.u32(field))
            guard self.handle(for: id)?.rawValue == UInt32(handle) else {
                throw .malformed(offset: field, reason: "id '\(id)' is not found by its hash (or appears twice)")
            }
        }
    }

    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
