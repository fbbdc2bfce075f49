import LiveryModel

/// A SHA-256 (or any 32-byte) digest of a theme's source files. LiveryBinary only stores it; the
/// compiler computes it, so the runtime can tell when a compiled file is stale.
public struct SourceDigest: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    /// `bytes` must hold exactly 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Format.digestSize else { return nil }
        self.bytes = bytes
    }

    public var description: String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// Everything a compiled file holds: the resolved variants, a digest of each theme's sources and
/// the bytes of every asset file in the catalog.
public struct CompiledThemeContents: Sendable {
    public var theme: ThemeVariants
    /// By theme id, for the theme and its ancestors; a theme without one stores no digest.
    public var sourceDigests: [String: SourceDigest]
    /// Must hold every file of `theme.assets.variants`.
    public var assetBytes: [AssetFileKey: [UInt8]]

    public init(
        theme: ThemeVariants, sourceDigests: [String: SourceDigest] = [:],
        assetBytes: [AssetFileKey: [UInt8]] = [:]
    ) {
        self.theme = theme
        self.sourceDigests = sourceDigests
        self.assetBytes = assetBytes
    }
}

/// Little-endian appends into a growing byte array.
struct ByteBuffer {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ value: Int) { u32(UInt32(value)) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }
    mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }
    mutating func pad(to alignment: Int) { zeros((alignment - bytes.count % alignment) % alignment) }

    mutating func setU32(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
    }
}

/// Turns resolved themes into the compiled format (docs/BinaryFormat.md). Output is a pure
/// function of the input, so compiling twice gives identical bytes.
public enum ThemeWriter {
    public static func encode(_ contents: CompiledThemeContents) throws(BinaryFormatError) -> [UInt8] {
        var state = EncoderState()
        return try state.encode(contents)
    }

    /// Header, section table, then each section at the next 8-byte boundary, then `BLKS`: the
    /// checksum of every `blockSize` bytes from the first section to the end of the last (unless
    /// `sections` brings its own `BLKS`, as hostile-bytes tests do).
    static func assemble(
        _ sections: [(kind: UInt32, required: Bool, bytes: [UInt8])],
        blockSize: Int = Format.blockSize
    ) -> [UInt8] {
        let addsBlocks = !sections.contains { $0.kind == SectionKind.blocks.rawValue }
        let count = sections.count + (addsBlocks ? 1 : 0)
        var file = ByteBuffer()
        file.zeros(Format.headerSize + count * Format.sectionEntrySize)
        var entries = ByteBuffer()
        func place(_ kind: UInt32, _ required: Bool, _ bytes: [UInt8]) {
            file.pad(to: Format.alignment)
            entries.u32(kind)
            entries.u32(required ? Format.sectionRequiredFlag : 0)
            entries.u64(UInt64(file.bytes.count))
            entries.u64(UInt64(bytes.count))
            entries.u32(CRC32.checksum(bytes))
            entries.u32(0)
            file.bytes += bytes
        }
        for (kind, required, bytes) in sections { place(kind, required, bytes) }
        file.pad(to: Format.alignment)
        if addsBlocks {
            place(
                SectionKind.blocks.rawValue, true,
                blockChecksums(
                    file.bytes, from: Format.headerSize + count * Format.sectionEntrySize, blockSize: blockSize))
            file.pad(to: Format.alignment)
        }
        var header = ByteBuffer()
        header.bytes += Format.magic
        header.u16(Format.major)
        header.u16(Format.minor)
        header.u32(Format.headerSize)
        header.u64(UInt64(file.bytes.count))
        header.u32(0)
        header.u32(count)
        header.u64(UInt64(Format.headerSize))
        header.u32(Format.sectionEntrySize)
        header.zeros(Format.headerChecksumOffset - header.bytes.count)
        file.bytes.replaceSubrange(0..<Format.headerChecksumOffset, with: header.bytes)
        file.bytes.replaceSubrange(Format.headerSize..<Format.headerSize + entries.bytes.count, with: entries.bytes)
        file.setU32(headerChecksum(file.bytes), at: Format.headerChecksumOffset)
        return file.bytes
    }

    /// The `BLKS` section for `file[start...]`: block size, block count, a CRC-32 per block.
    static func blockChecksums(_ file: [UInt8], from start: Int, blockSize: Int) -> [UInt8] {
        let covered = max(file.count - start, 0)
        let count = (covered + blockSize - 1) / blockSize
        var section = ByteBuffer()
        section.u32(blockSize)
        section.u32(count)
        file.withUnsafeBytes { raw in
            for block in 0..<count {
                let lower = start + block * blockSize
                section.u32(
                    CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[lower..<min(lower + blockSize, file.count)])))
            }
        }
        return section.bytes
    }

    static func headerChecksum(_ file: [UInt8]) -> UInt32 {
        file.withUnsafeBytes { raw in
            let count = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 28, as: UInt32.self)))
            let table = Int(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self)))
            let head = CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<Format.headerChecksumOffset]))
            return CRC32.update(
                head,
                UnsafeRawBufferPointer(
                    rebasing: raw[table..<table + count * Format.sectionEntrySize]))
        }
    }
}

struct EncoderState {
    var strings: [String] = []
    /// Keyed by exact bytes: Swift's `==` treats canonically equivalent strings ("é" and "e" + U+0301)
    /// as equal, so one would be stored for the other and an id would no longer be found by the
    /// hash of its own bytes (found by the FuzzRoundTrip fuzzer, docs/Security.md).
    var stringIndex: [ExactString: UInt32] = [:]
    var instances = ByteBuffer()
    var instanceCount = 0
    /// Records are shared by every (id, variant) that resolves to the same component and list.
    var instanceIndex: [RecordKey: UInt32] = [:]
    var operations = ByteBuffer()
    var operationCount = 0
    /// Keyed by exact bytes too: two operations whose strings differ only in normalization would
    /// otherwise share one record, and the second would read back with the first one's bytes.
    var operationIndex: [ExactOperation: UInt32] = [:]
    /// Operation numbers: one full list per distinct list that is not stored as a patch.
    var operationLists: [UInt32] = []
    var operationListIndex: [[UInt32]: UInt32] = [:]
    /// `(position, operation)` pairs, in record order (record r's patches follow record r-1's).
    var patches: [UInt32] = []
    /// Per handle, the full lists its earlier records use: the candidate bases of its next patch.
    var baseLists: [[(first: Int, count: Int)]] = []
    /// Per record, its list when it has no patches (a full list, so a possible base).
    var recordLists: [(first: Int, count: Int)?] = []
    /// Top-level params in operation order; array elements go to `elements` (see `appendValues`).
    var values: [PendingValue] = []
    var cachedImages: Set<ExactString> = []

    struct RecordKey: Hashable {
        var component: UInt32
        var operations: [UInt32]
    }

    /// A value slot before the final layout: arrays know their elements, placed after every param.
    struct PendingValue {
        var name: UInt32
        var value: Value
    }

    mutating func string(_ text: String) -> UInt32 {
        if let index = stringIndex[ExactString(text)] { return index }
        let index = UInt32(strings.count)
        strings.append(text)
        stringIndex[ExactString(text)] = index
        return index
    }

    mutating func optionalString(_ text: String?) -> UInt32 { text.map { string($0) } ?? Format.none }

    mutating func encode(_ contents: CompiledThemeContents) throws(BinaryFormatError) -> [UInt8] {
        let theme = contents.theme
        let axes = theme.axes

        // Variants: canonical keys only, each in its own slot.
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

        // Handles: every distinct id, sorted.
        var ids = Array(Set(orderedVariants.joined().map(\.id))).sorted()
        ids = ids.reduce(into: []) { result, id in if result.last != id { result.append(id) } }
        var handleOf: [String: Int] = [:]
        for (handle, id) in ids.enumerated() { handleOf[id] = handle }
        baseLists = Array(repeating: [], count: ids.count)

        // Chain first so the theme's own strings come early in the pool.
        let chain = theme.ancestors + [theme.info]
        var chainSection = ByteBuffer()
        chainSection.u32(chain.count)
        chainSection.u32(0)
        for info in chain {
            chainSection.u32(string(info.id))
            chainSection.u32(string(info.name))
            chainSection.u32(string(info.version))
            chainSection.u32(optionalString(info.parent))
            chainSection.u32(optionalString(info.description))
            if let digest = contents.sourceDigests[info.id] {
                chainSection.u32(1)
                chainSection.bytes.append(contentsOf: digest.bytes)
            } else {
                chainSection.u32(0)
                chainSection.zeros(Format.digestSize)
            }
        }

        var idSection = ByteBuffer()
        let idStrings = ids.map { string($0) }
        let (buckets, maxProbe) = try Self.hashTable(ids)
        idSection.u32(ids.count)
        idSection.u32(buckets.count)
        idSection.u32(maxProbe)
        idSection.u32(0)
        for index in idStrings { idSection.u32(index) }
        for bucket in buckets { idSection.u32(bucket) }

        var variantSection = ByteBuffer()
        variantSection.u8(UInt8(dimensions.all.count))
        variantSection.zeros(3)
        variantSection.u32(orderedVariants.count)
        for (index, dimension) in dimensions.all.enumerated() {
            variantSection.u32(string(dimension.name))
            variantSection.u16(axes.mask(of: index))
            variantSection.u8(UInt8(dimension.values.count))
            variantSection.u8(0)
        }
        for dimension in dimensions.all { for value in dimension.values { variantSection.u32(string(value)) } }
        for slot in slots { variantSection.u32(slot) }
        for instances in orderedVariants {
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

        let valueSection = try layoutValues()

        var assetSection = ByteBuffer()
        var dataSection = ByteBuffer()
        assetSection.u32(theme.assets.searchOrder.count)
        assetSection.u32(theme.assets.variants.count)
        for themeID in theme.assets.searchOrder { assetSection.u32(string(themeID)) }
        assetSection.pad(to: Format.alignment)
        for variant in theme.assets.variants {
            guard let bytes = contents.assetBytes[variant.fileKey] else {
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

        // Personal choices, only for a theme with overridable constants (an optional section).
        var variantIndex: [TraitSet: Int] = [:]
        for traits in axes.traitSets where theme.variants[traits] != nil {
            variantIndex[traits] = Int(slots[addressing.slot(traits)])
        }
        let choiceSection =
            theme.choices.isEmpty
            ? nil
            : try choiceSection(
                theme.choices, variants: variantIndex, variantCount: orderedVariants.count, handles: handleOf,
                operationCount: { variant, handle in
                    orderedVariants[variant].first { $0.id == ids[handle] }?.operations.count
                })

        // The string pool last: every section above has interned its strings by now.
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

        var instanceSection = ByteBuffer()
        instanceSection.u32(instanceCount)
        instanceSection.u32(0)
        instanceSection.bytes += instances.bytes
        var operationSection = ByteBuffer()
        operationSection.u32(operationCount)
        operationSection.u32(0)
        operationSection.bytes += operations.bytes
        var listSection = ByteBuffer()
        listSection.u32(operationLists.count)
        listSection.u32(0)
        for entry in operationLists { listSection.u32(entry) }
        var patchSection = ByteBuffer()
        patchSection.u32(patches.count / 2)
        patchSection.u32(0)
        for word in patches { patchSection.u32(word) }

        let sections: [(SectionKind, [UInt8])] = [
            (.strings, stringSection.bytes), (.chain, chainSection.bytes), (.ids, idSection.bytes),
            (.variants, variantSection.bytes), (.instances, instanceSection.bytes),
            (.operationLists, listSection.bytes), (.listPatches, patchSection.bytes),
            (.operations, operationSection.bytes), (.values, valueSection.bytes),
            (.assets, assetSection.bytes), (.data, dataSection.bytes),
        ]
        return ThemeWriter.assemble(
            sections.map { ($0.0.rawValue, true, $0.1) }
                + (choiceSection.map { [(SectionKind.choices.rawValue, false, $0)] } ?? []))
    }

    /// Interns an instance record: every (id, variant) resolving to the same component and
    /// operations shares one. A list that is new is stored in full, or, when it differs from a
    /// list of the same length that an earlier variant of this id stored in full in fewer than
    /// half of its positions, as that list plus patches (a patch costs two words, an entry one).
    mutating func record(_ instance: ResolvedInstance, handle: Int) throws(BinaryFormatError) -> UInt32 {
        let list = instance.operations.map { operation($0) }
        let key = RecordKey(component: string(instance.component), operations: list)
        if let index = instanceIndex[key] {
            if let shared = recordLists[Int(index)] { addBase(shared, handle: handle) }
            return index
        }
        let first: Int
        var changed: [Int] = []
        if let known = operationListIndex[list] {
            first = Int(known)
        } else {
            var best: (first: Int, changed: [Int])?
            for base in baseLists[handle] where base.count == list.count {
                var differences: [Int] = []
                for position in 0..<list.count where operationLists[base.first + position] != list[position] {
                    differences.append(position)
                    if 2 * differences.count >= list.count { break }
                }
                if 2 * differences.count < list.count, differences.count < best?.changed.count ?? Int.max {
                    best = (base.first, differences)
                }
            }
            if let best {
                first = best.first
                changed = best.changed
            } else {
                first = operationLists.count
                operationListIndex[list] = UInt32(first)
                operationLists += list
            }
        }
        recordLists.append(changed.isEmpty ? (first, list.count) : nil)
        if changed.isEmpty { addBase((first, list.count), handle: handle) }
        for position in changed {
            patches.append(UInt32(position))
            patches.append(list[position])
        }
        let index = UInt32(instanceCount)
        instanceIndex[key] = index
        instances.u32(key.component)
        instances.u32(first)
        instances.u32(list.count)
        instances.u32(patches.count / 2)
        instanceCount += 1
        guard instanceCount < Int(Format.none), operationLists.count < Int(Format.none),
            patches.count / 2 < Int(Format.none)
        else {
            throw .unencodable("more than 2^32 records")
        }
        return index
    }

    mutating func addBase(_ list: (first: Int, count: Int), handle: Int) {
        if !baseLists[handle].contains(where: { $0.first == list.first && $0.count == list.count }) {
            baseLists[handle].append(list)
        }
    }

    /// Interns an operation: variants that differ in one colour share every other operation.
    mutating func operation(_ operation: ResolvedOperation) -> UInt32 {
        if let index = operationIndex[ExactOperation(operation)] { return index }
        let index = UInt32(operationCount)
        operationIndex[ExactOperation(operation)] = index
        operations.u32(string(operation.name))
        operations.u32(string(operation.state.rawValue))
        operations.u32(values.count)
        operations.u32(operation.params.count)
        operationCount += 1
        for param in operation.params {
            values.append(PendingValue(name: string(param.name), value: param.value))
        }
        return index
    }

    /// Writes the value slots: every param first (operations' ranges tile them in order), then
    /// array elements breadth first (arrays' ranges tile the rest in slot order), which is what
    /// the verifier checks to rule out cycles, sharing and unbounded nesting.
    mutating func layoutValues() throws(BinaryFormatError) -> ByteBuffer {
        var queue = values
        var buffer = ByteBuffer()
        var cursor = 0
        var nextElement = queue.count
        while cursor < queue.count {
            let pending = queue[cursor]
            if case .array(let items) = pending.value {
                for item in items { queue.append(PendingValue(name: Format.none, value: item)) }
            }
            try slot(pending, index: cursor, nextElement: &nextElement, into: &buffer)
            cursor += 1
        }
        guard queue.count < Int(Format.none) else { throw .unencodable("more than 2^32 values") }
        var section = ByteBuffer()
        section.u32(queue.count)
        section.u32(0)
        section.bytes += buffer.bytes
        return section
    }

    mutating func slot(
        _ pending: PendingValue, index: Int, nextElement: inout Int,
        into buffer: inout ByteBuffer
    ) throws(BinaryFormatError) {
        func finite(_ numbers: Double...) throws(BinaryFormatError) {
            for number in numbers where !number.isFinite {
                throw .unencodable("a value holds the non-finite number \(number)")
            }
        }
        let start = buffer.bytes.count
        buffer.u32(pending.name)
        var small: UInt8 = 0
        let tagOffset = buffer.bytes.count
        buffer.u8(0)
        buffer.u8(0)
        buffer.u16(0)
        let tag = pending.value.type.tag
        switch pending.value {
        case .float(let number):
            try finite(number)
            buffer.f64(number)
        case .integer(let number):
            buffer.i64(number)
        case .bool(let flag):
            small = flag ? 1 : 0
        case .string(let text):
            buffer.u32(string(text))
        case .enumeration(let text):
            buffer.u32(string(text))
        case .color(let color):
            try finite(color.red, color.green, color.blue, color.alpha)
            for component in [color.red, color.green, color.blue, color.alpha] { buffer.f64(component) }
        case .point(let point):
            try finite(point.x, point.y)
            buffer.f64(point.x)
            buffer.f64(point.y)
        case .size(let size):
            try finite(size.width, size.height)
            buffer.f64(size.width)
            buffer.f64(size.height)
        case .rect(let rect):
            try finite(rect.x, rect.y, rect.width, rect.height)
            for number in [rect.x, rect.y, rect.width, rect.height] { buffer.f64(number) }
        case .insets(let insets):
            try finite(insets.top, insets.left, insets.bottom, insets.right)
            for number in [insets.top, insets.left, insets.bottom, insets.right] { buffer.f64(number) }
        case .font(let font):
            buffer.u32(string(font.family))
            buffer.u8(font.weight.diskCode)
            // Format 1.1: scaling code (0 = not given) and a has-max-size flag; zero in 1.0 fonts.
            buffer.u8(font.scaling?.diskCode ?? 0)
            buffer.u8(font.maxSize == nil ? 0 : 1)
            // Format 1.2: which typography numbers are given (bit 0 letter spacing, bit 1 line
            // height); a number not given is stored as 0.
            buffer.u8((font.letterSpacing == nil ? 0 : 1) | (font.lineHeight == nil ? 0 : 2))
            if let size = font.size {
                try finite(size)
                small = 1
            }
            try finite(font.maxSize ?? 0, font.letterSpacing ?? 0, font.lineHeight ?? 0)
            if let lineHeight = font.lineHeight, lineHeight < 0 {
                throw .unencodable("a font's line height is \(ValueText.number(lineHeight)); it cannot be negative")
            }
            buffer.f64(font.size ?? 0)
            buffer.f64(font.maxSize ?? 0)
            buffer.f64(font.letterSpacing ?? 0)
            buffer.f64(font.lineHeight ?? 0)
        case .image(let image):
            buffer.u32(string(image.name))
            small = image.cache ? 1 : 0
            if image.cache { cachedImages.insert(ExactString(image.name)) }
        case .array(let items):
            buffer.u32(nextElement)
            buffer.u32(items.count)
            let depth = Self.depth(pending.value)
            // Readers refuse deeper arrays (VerificationLimits.maxArrayDepth): never write one
            // (found by the FuzzRoundTrip fuzzer).
            guard depth <= VerificationLimits().maxArrayDepth else {
                throw .unencodable(
                    "arrays nest \(depth) deep; at most \(VerificationLimits().maxArrayDepth) can be stored")
            }
            buffer.u32(depth)
            nextElement += items.count
        }
        buffer.bytes[tagOffset] = tag.rawValue
        buffer.bytes[tagOffset + 1] = small
        buffer.zeros(start + Format.valueSlotSize - buffer.bytes.count)
    }

    /// 1 for an array of scalars, 1 + the deepest element array otherwise.
    static func depth(_ value: Value) -> Int {
        guard case .array(let items) = value else { return 0 }
        return 1 + (items.map(depth).max() ?? 0)
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

/// A string compared and hashed by its UTF-8 bytes, not by canonical equivalence.
struct ExactString: Hashable {
    let text: String
    init(_ text: String) { self.text = text }

    static func == (lhs: ExactString, rhs: ExactString) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// An operation compared by the exact bytes of every string in it, like `ExactString`. The
/// canonical hash is kept: operations equal byte for byte are canonically equal too.
struct ExactOperation: Hashable {
    let operation: ResolvedOperation
    init(_ operation: ResolvedOperation) { self.operation = operation }

    static func == (lhs: ExactOperation, rhs: ExactOperation) -> Bool {
        lhs.operation == rhs.operation
            && lhs.strings.elementsEqual(rhs.strings) { $0.utf8.elementsEqual($1.utf8) }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(operation) }

    private var strings: [String] {
        var strings = [operation.name, operation.state.rawValue]
        func collect(_ value: Value) {
            switch value {
            case .string(let text), .enumeration(let text): strings.append(text)
            case .font(let font): strings.append(font.family)
            case .image(let image): strings.append(image.name)
            case .array(let elements): elements.forEach(collect)
            case .float, .integer, .bool, .color, .point, .size, .rect, .insets: break
            }
        }
        for param in operation.params {
            strings.append(param.name)
            collect(param.value)
        }
        return strings
    }
}
