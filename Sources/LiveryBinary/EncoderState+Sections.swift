// The writer's sections, one function each, as `EncoderState.encode` calls them.
import LiveryModel

extension EncoderState {
    /// Canonical keys only, each in its own slot.
    static func storedVariants(_ theme: ThemeVariants) throws(BinaryFormatError) -> StoredVariants {
        let axes = theme.axes
        let dimensions = theme.dimensions
        for dimension in dimensions.all.count..<TraitSet.capacity where axes.mask(of: dimension) != 0 {
            throw .unencodable("the theme's trait axes mention dimension \(dimension), which it does not record")
        }
        guard let addressing = VariantAddressing(dimensions: dimensions, axes: axes) else {
            throw .unencodable("the theme distinguishes too many trait sets")
        }
        var slots = [UInt32](repeating: Format.none, count: addressing.slotCount)
        var orderedVariants: [[ResolvedInstance]] = []
        for traits in axes.traitSets {
            guard let instances = theme.variants[traits] else { continue }
            slots[addressing.slot(traits)] = UInt32(orderedVariants.count)
            orderedVariants.append(instances.sorted { $0.id < $1.id })
        }
        for key in theme.variants.keys where axes.canonical(key) != key {
            throw .unencodable("variant key \(key) is not canonical for the theme's trait axes")
        }
        guard !orderedVariants.isEmpty else { throw .unencodable("the theme has no variants") }
        return StoredVariants(addressing: addressing, slots: slots, instances: orderedVariants)
    }

    /// `CHAN`: root first, the theme itself last, each with the digest of its sources if it has one.
    mutating func chainSection(_ chain: [ThemeInfo], digests: [String: SourceDigest]) -> [UInt8] {
        var chainSection = ByteBuffer()
        chainSection.u32(chain.count)
        chainSection.u32(0)
        for info in chain {
            chainSection.u32(string(info.id))
            chainSection.u32(string(info.name))
            chainSection.u32(string(info.version))
            chainSection.u32(optionalString(info.parent))
            chainSection.u32(optionalString(info.description))
            if let digest = digests[info.id] {
                chainSection.u32(1)
                chainSection.bytes.append(contentsOf: digest.bytes)
            } else {
                chainSection.u32(0)
                chainSection.zeros(Format.digestSize)
            }
        }
        return chainSection.bytes
    }

    /// `IDTB`: the ids' strings by handle, then the hash table's buckets.
    mutating func idSection(_ ids: [String]) throws(BinaryFormatError) -> [UInt8] {
        var idSection = ByteBuffer()
        let idStrings = ids.map { string($0) }
        let (buckets, maxProbe) = try Self.hashTable(ids)
        idSection.u32(ids.count)
        idSection.u32(buckets.count)
        idSection.u32(maxProbe)
        idSection.u32(0)
        for index in idStrings { idSection.u32(index) }
        for bucket in buckets { idSection.u32(bucket) }
        return idSection.bytes
    }

    /// `VARS`: the recorded dimensions, the slots, then one row per variant of each handle's
    /// record (plus one; 0 where the variant lacks the id), interning the records as it goes.
    mutating func variantSection(
        _ stored: StoredVariants, ids: [String], handles handleOf: [String: Int]
    ) throws(BinaryFormatError) -> [UInt8] {
        let dimensions = stored.addressing.dimensions
        var variantSection = ByteBuffer()
        variantSection.u8(UInt8(dimensions.all.count))
        variantSection.zeros(3)
        variantSection.u32(stored.instances.count)
        for (index, dimension) in dimensions.all.enumerated() {
            variantSection.u32(string(dimension.name))
            variantSection.u16(stored.addressing.axes.mask(of: index))
            variantSection.u8(UInt8(dimension.values.count))
            variantSection.u8(0)
        }
        for dimension in dimensions.all { for value in dimension.values { variantSection.u32(string(value)) } }
        for slot in stored.slots { variantSection.u32(slot) }
        for instances in stored.instances {
            var row = [UInt32](repeating: 0, count: ids.count)
            for instance in instances {
                let handle = handleOf[instance.id]!
                // Swift's == merged two spellings of one id (canonically equivalent, different
                // bytes) into one handle; lookups hash bytes, so one spelling would not be found.
                guard ids[handle].utf8.elementsEqual(instance.id.utf8) else {
                    throw .unencodable(
                        "instance ids '\(ids[handle])' and '\(instance.id)' differ only in Unicode normalization; spell them the same way"
                    )
                }
                guard row[handle] == 0 else {
                    throw .unencodable("instance '\(instance.id)' appears twice in one variant")
                }
                row[handle] = try record(instance, handle: handle) + 1
            }
            for entry in row { variantSection.u32(entry) }
        }
        return variantSection.bytes
    }

    /// `ASSE` and `DATA`: the search order and one record per asset file, and the files' bytes.
    mutating func assetSections(
        _ catalog: AssetCatalog, bytes assetBytes: [AssetFileKey: [UInt8]], dimensions: TraitDimensions
    ) throws(BinaryFormatError) -> (assets: [UInt8], data: [UInt8]) {
        var assetSection = ByteBuffer()
        var dataSection = ByteBuffer()
        assetSection.u32(catalog.searchOrder.count)
        assetSection.u32(catalog.variants.count)
        for themeID in catalog.searchOrder { assetSection.u32(string(themeID)) }
        assetSection.pad(to: Format.alignment)
        for variant in catalog.variants {
            guard let bytes = assetBytes[variant.fileKey] else {
                throw .unencodable("no bytes for asset '\(variant.file)' of theme '\(variant.themeID)'")
            }
            guard variant.scale >= 0, variant.scale <= Int(UInt32.max) else {
                throw .unencodable("asset '\(variant.file)' has scale \(variant.scale)")
            }
            dataSection.pad(to: Format.alignment)
            assetSection.u32(string(variant.name))
            assetSection.u32(string(variant.themeID))
            assetSection.u32(string(variant.file))
            assetSection.u32(UInt32(variant.scale))
            for dimension in 0..<Format.assetQualifierBytes {
                let value = variant.qualifiers[dimension]
                guard value == nil || dimension < dimensions.all.count else {
                    throw .unencodable("asset '\(variant.file)' has a qualifier of an unrecorded dimension")
                }
                assetSection.u8(UInt8(value.map { $0 + 1 } ?? 0))
            }
            assetSection.u8(cachedImages.contains(ExactString(variant.name)) ? 1 : 0)
            assetSection.zeros(2)
            assetSection.u64(UInt64(dataSection.bytes.count))
            assetSection.u64(UInt64(bytes.count))
            dataSection.bytes.append(contentsOf: bytes)
        }
        return (assetSection.bytes, dataSection.bytes)
    }

    /// `STRS`: every string interned so far, as end offsets and then the UTF-8 bytes.
    func stringSection() throws(BinaryFormatError) -> [UInt8] {
        var stringSection = ByteBuffer()
        let utf8 = strings.map { Array($0.utf8) }
        let byteLength = utf8.reduce(0) { $0 + $1.count }
        guard strings.count < Int(Format.none), byteLength <= Int(UInt32.max) else {
            throw .unencodable("the string pool is larger than 4 GiB")
        }
        stringSection.u32(strings.count)
        stringSection.u32(byteLength)
        var end = 0
        stringSection.u32(0)
        for text in utf8 {
            end += text.count
            stringSection.u32(end)
        }
        for text in utf8 { stringSection.bytes.append(contentsOf: text) }
        return stringSection.bytes
    }

    /// `INST`: the interned instance records.
    func instanceSection() -> [UInt8] { Self.counted(instanceCount) { $0.bytes += instances.bytes } }

    /// `OPER`: the interned operation records.
    func operationSection() -> [UInt8] { Self.counted(operationCount) { $0.bytes += operations.bytes } }

    /// `OPLS`: the operation lists stored in full.
    func listSection() -> [UInt8] {
        Self.counted(operationLists.count) { section in for entry in operationLists { section.u32(entry) } }
    }

    /// `PTCH`: the patches of every record, in record order.
    func patchSection() -> [UInt8] {
        Self.counted(patches.count / 2) { section in for word in patches { section.u32(word) } }
    }

    /// A section of `count` records: the count, a zero word, then what `records` writes.
    static func counted(_ count: Int, _ records: (inout ByteBuffer) -> Void) -> [UInt8] {
        var section = ByteBuffer()
        section.u32(count)
        section.u32(0)
        records(&section)
        return section.bytes
    }

    /// Open addressing with linear probing, load factor at most 1/2; grows (up to 16x) while the
    /// longest probe run exceeds the default limit, so every file the writer makes verifies.
    static func hashTable(_ ids: [String]) throws(BinaryFormatError) -> ([UInt32], Int) {
        var bucketCount = 1
        while bucketCount < max(2 * ids.count, 1) { bucketCount *= 2 }
        let hashes = ids.map(IDHash.hash)
        let limit = VerificationLimits().maxProbeLength
        for _ in 0..<5 {
            var buckets = [UInt32](repeating: 0, count: bucketCount)
            var longest = 1
            let mask = UInt64(bucketCount - 1)
            for (handle, hash) in hashes.enumerated() {
                var position = Int(hash & mask)
                var probes = 1
                while buckets[position] != 0 {
                    position = (position + 1) & Int(mask)
                    probes += 1
                }
                buckets[position] = UInt32(handle + 1)
                longest = max(longest, probes)
            }
            if longest <= limit { return (buckets, longest) }
            bucketCount *= 2
        }
        throw .unencodable(
            "\(ids.count) instance ids collide in the id hash table beyond the probe limit of \(limit); rename some")
    }
}
