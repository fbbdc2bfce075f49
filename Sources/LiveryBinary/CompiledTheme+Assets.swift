// The asset directory and the asset files' bytes, lent without copying.
import LiveryModel

extension CompiledTheme {
    public var assets: [CompiledAsset] {
        (0..<layout.assetCount).map { index in
            let record = layout.assetRecords + index * Format.assetRecordSize
            var qualifiers = TraitSet()
            for dimension in 0..<Format.assetQualifierBytes {
                let code = Int(raw.u8(record + 16 + dimension))
                if code != 0 { qualifiers[dimension] = code - 1 }
            }
            let variant = AssetVariant(
                name: string(raw.u32(record)), themeID: string(raw.u32(record + 4)),
                file: string(raw.u32(record + 8)), qualifiers: qualifiers,
                scale: raw.int(record + 12))
            return CompiledAsset(
                variant: variant, cache: raw.u8(record + 16 + Format.assetQualifierBytes) == 1,
                offset: layout.dataOffset + Int(raw.u64(record + 32)),
                length: Int(raw.u64(record + 40)))
        }
    }

    public var assetCatalog: AssetCatalog {
        AssetCatalog(
            searchOrder: (0..<layout.searchOrderCount).map { string(raw.u32(layout.searchOrder + 4 * $0)) },
            variants: assets.map(\.variant))
    }

    /// Lends the mapped bytes of an asset: no copy, valid only inside `body`. Nil when the
    /// asset is not in the file or its bytes fail their block checksums.
    public func withBytes<R>(of asset: CompiledAsset, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard asset.offset >= layout.dataOffset, asset.length >= 0,
            asset.offset + asset.length <= layout.dataOffset + layout.dataLength
        else { return nil }
        do {
            try blocks.withLock { () throws(BinaryFormatError) in try blocks.check(asset.offset, asset.length) }
        } catch {
            return nil
        }
        return try body(raw.buffer(asset.offset, asset.length))
    }

    public func bytes(of asset: CompiledAsset) -> [UInt8]? { withBytes(of: asset) { Array($0) } }

}
