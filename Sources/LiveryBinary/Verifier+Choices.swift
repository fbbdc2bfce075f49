// Verifying `CHOI`: its length, constants, literals, nodes, uses, runs and variants.
import LiveryModel

extension Verifier {
    /// `CHOI`, when present: exact length; constants, literal slots, nodes (naming only earlier
    /// nodes, array children tiling the child list in order, depths that grow, numbers in range),
    /// uses (nodes, allowed values), entries (ids, runs of uses), variants (groups of entries
    /// sorted by id, each naming an instance the variant has, whose list every position fits)
    /// and allowed values.
    // Kept out of `verify`, and with it the checks below, which only this calls: inlined there,
    // it slowed the checks of every file, with or without `CHOI`
    // (`Benchmarks/Scripts/launch-compare.py`, the compiled launch at N = 10,000).
    @inline(never)
    static func choices(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout)
        throws(BinaryFormatError)
    {
        guard let info = layout.sections.first(where: { $0.rawKind == SectionKind.choices.rawValue }) else { return }
        let parts = try choiceParts(raw, offset: info.offset, length: info.length, layout: layout)
        try choiceConstantsAndLiterals(raw, parts, layout)
        try choiceNodes(raw, parts)
        try choiceUses(raw, parts, layout)
        let highest = try choiceRuns(raw, parts, layout)
        try choiceVariants(raw, parts, layout, highest: highest)
        for index in 0..<parts.allowedCount { try stringIndex(raw, parts.allowed + 4 * index, layout) }
        layout.choices = parts
    }

    /// The header's counts, checked against the section's length, and where each part starts.
    private static func choiceParts(_ raw: RawBytes, offset: Int, length: Int, layout: Layout)
        throws(BinaryFormatError) -> ChoiceLayout
    {
        try minimumLength(.choices, offset: offset, length: length, Format.choicesHeaderSize)
        var parts = ChoiceLayout()
        parts.present = true
        parts.constantCount = raw.int(offset)
        parts.literalCount = raw.int(offset + 4)
        parts.nodeCount = raw.int(offset + 8)
        parts.childCount = raw.int(offset + 12)
        guard raw.int(offset + 16) == layout.variantCount else {
            throw fail(offset + 16, "CHOI lists \(raw.u32(offset + 16)) variants, the file has \(layout.variantCount)")
        }
        parts.entryCount = raw.int(offset + 20)
        parts.useCount = raw.int(offset + 24)
        parts.allowedCount = raw.int(offset + 28)
        let expected =
            UInt64(Format.choicesHeaderSize) + UInt64(parts.constantCount) * UInt64(Format.choiceConstantSize)
            + UInt64(parts.literalCount) * UInt64(Format.valueSlotSize)
            + UInt64(parts.nodeCount) * UInt64(Format.choiceNodeSize) + 4 * UInt64(parts.childCount)
            + UInt64(layout.variantCount) * UInt64(Format.choiceVariantSize)
            + UInt64(parts.entryCount) * UInt64(Format.choiceEntrySize)
            + UInt64(parts.useCount) * UInt64(Format.choiceUseSize) + 4 * UInt64(parts.allowedCount)
        try expectLength(.choices, offset: offset, length: length, expected)
        parts.constants = offset + Format.choicesHeaderSize
        parts.literals = parts.constants + parts.constantCount * Format.choiceConstantSize
        parts.nodes = parts.literals + parts.literalCount * Format.valueSlotSize
        parts.children = parts.nodes + parts.nodeCount * Format.choiceNodeSize
        parts.variants = parts.children + 4 * parts.childCount
        parts.entries = parts.variants + layout.variantCount * Format.choiceVariantSize
        parts.uses = parts.entries + parts.entryCount * Format.choiceEntrySize
        parts.allowed = parts.uses + parts.useCount * Format.choiceUseSize
        return parts
    }

    /// The constant records (a name and a known tag) and the literal slots (no name, never an array).
    private static func choiceConstantsAndLiterals(_ raw: RawBytes, _ parts: ChoiceLayout, _ layout: Layout)
        throws(BinaryFormatError)
    {
        for index in 0..<parts.constantCount {
            let record = parts.constants + index * Format.choiceConstantSize
            try stringIndex(raw, record, layout)
            guard ValueTag(rawValue: raw.u8(record + 4)) != nil else {
                throw fail(record + 4, "unknown value tag \(raw.u8(record + 4)) of a choice constant")
            }
            guard raw.u8(record + 5) == 0, raw.u16(record + 6) == 0 else {
                throw fail(record + 5, "reserved bytes are not zero")
            }
        }
        for index in 0..<parts.literalCount {
            let slot = parts.literals + index * Format.valueSlotSize
            guard raw.u32(slot) == Format.none else { throw fail(slot, "a literal slot has a name") }
            guard try valueSlot(raw, slot, layout: layout) != .array else {
                throw fail(slot + 4, "a literal slot holds an array (arrays are array nodes)")
            }
        }
    }

    /// Every node, in order: array nodes' children tile the child list.
    private static func choiceNodes(_ raw: RawBytes, _ parts: ChoiceLayout) throws(BinaryFormatError) {
        var childCursor = 0
        for index in 0..<parts.nodeCount {
            try choiceNode(raw, index, parts, childCursor: &childCursor)
        }
        guard childCursor == parts.childCount else {
            throw fail(parts.children, "\(parts.childCount - childCursor) child entries belong to no array node")
        }
    }

    /// Node `index`: its kind's fields, operands that are earlier and less deep nodes, numbers in range.
    private static func choiceNode(_ raw: RawBytes, _ index: Int, _ parts: ChoiceLayout, childCursor: inout Int)
        throws(BinaryFormatError)
    {
        let node = parts.nodes + index * Format.choiceNodeSize
        let space = raw.u8(node + 1)
        let shift = raw.u8(node + 2)
        let flags = raw.u8(node + 3)
        let depth = Int(raw.u16(node + 4))
        let a = raw.int(node + 8)
        let b = raw.u32(node + 12)
        let c = raw.u32(node + 16)
        let amount = raw.f64(node + 24)
        let alpha = raw.f64(node + 32)
        let ratio = raw.f64(node + 40)
        guard raw.u16(node + 6) == 0, raw.u32(node + 20) == 0 else {
            throw fail(node + 6, "reserved bytes of a choice node are not zero")
        }
        guard depth >= 1, depth <= Format.maxChoiceDepth else {
            throw fail(node + 4, "choice node depth \(depth) is not in 1...\(Format.maxChoiceDepth)")
        }
        /// An operand: an earlier node, less deep than this one.
        func operand(_ field: Int) throws(BinaryFormatError) {
            let named = raw.int(field)
            guard named < index else {
                throw fail(field, "choice node \(index) names node \(named) (only earlier nodes)")
            }
            guard Int(raw.u16(parts.nodes + named * Format.choiceNodeSize + 4)) < depth else {
                throw fail(node + 4, "choice node \(index) is not deeper than its operand \(named)")
            }
        }
        func plain() throws(BinaryFormatError) {
            guard space == 0, shift == 0, flags == 0, amount.bitPattern == 0, alpha.bitPattern == 0,
                ratio.bitPattern == 0
            else { throw fail(node + 1, "choice node \(index) has modifier fields but is not derived") }
        }
        switch ChoiceNodeKind(rawValue: raw.u8(node)) {
        case .literal:
            try plain()
            guard depth == 1, a < parts.literalCount, b == 0, c == 0 else {
                throw fail(node + 8, "literal node \(index) names literal \(a) of \(parts.literalCount)")
            }
        case .constant:
            try plain()
            guard a < parts.constantCount, c == 0 else {
                throw fail(node + 8, "constant node \(index) names constant \(a) of \(parts.constantCount)")
            }
            try operand(node + 12)
        case .array:
            try plain()
            guard a == childCursor, UInt64(a) + UInt64(b) <= UInt64(parts.childCount), c == 0 else {
                throw fail(node + 8, "array node \(index)'s children are not the next \(b) of the child list")
            }
            for child in 0..<Int(b) { try operand(parts.children + 4 * (a + child)) }
            childCursor += Int(b)
        case .derived:
            guard ModifierSpace(diskCode: space) != nil, shift <= 3, flags <= 3 else {
                throw fail(node + 1, "derived node \(index) has space \(space), shift \(shift), flags \(flags)")
            }
            try operand(node + 8)
            if shift == 3 {
                try operand(node + 12)
            } else if b != Format.none {
                throw fail(node + 12, "derived node \(index) names a mix colour without mixing")
            }
            if flags & 2 != 0 {
                try operand(node + 16)
            } else if c != Format.none {
                throw fail(node + 16, "derived node \(index) names a contrast background without a guard")
            }
            guard amount.isFinite, (0...1).contains(amount), shift != 0 || amount.bitPattern == 0 else {
                throw fail(node + 24, "derived node \(index)'s amount is not in 0...1")
            }
            guard alpha.isFinite, (0...1).contains(alpha), flags & 1 != 0 || alpha.bitPattern == 0 else {
                throw fail(node + 32, "derived node \(index)'s alpha is not in 0...1")
            }
            guard flags & 2 != 0 ? (ratio.isFinite && (1...21).contains(ratio)) : ratio.bitPattern == 0 else {
                throw fail(node + 40, "derived node \(index)'s minimum ratio is not in 1...21")
            }
        case nil:
            throw fail(node, "unknown choice node kind \(raw.u8(node))")
        }
    }

    /// Each use: its param, its node, its run of allowed values and its element type.
    private static func choiceUses(_ raw: RawBytes, _ parts: ChoiceLayout, _ layout: Layout)
        throws(BinaryFormatError)
    {
        for index in 0..<parts.useCount {
            let use = parts.uses + index * Format.choiceUseSize
            try stringIndex(raw, use + 4, layout)
            guard raw.int(use + 8) < parts.nodeCount else {
                throw fail(use + 8, "choice use names node \(raw.u32(use + 8)) of \(parts.nodeCount)")
            }
            guard UInt64(raw.u32(use + 12)) + UInt64(raw.u32(use + 16)) <= UInt64(parts.allowedCount) else {
                throw fail(use + 12, "choice use's allowed values run past the \(parts.allowedCount) entries")
            }
            let element = raw.u8(use + 20)
            guard element == 0 || ValueTag(rawValue: element) != nil else {
                throw fail(use + 20, "unknown element type tag \(element)")
            }
            guard raw.u8(use + 21) == 0, raw.u16(use + 22) == 0 else {
                throw fail(use + 21, "reserved bytes are not zero")
            }
        }
    }

    /// The runs the entries name, which must tile the uses: by first use, the highest operation
    /// position in the run.
    private static func choiceRuns(_ raw: RawBytes, _ parts: ChoiceLayout, _ layout: Layout)
        throws(BinaryFormatError) -> [Int: Int]
    {
        // Runs are shared whole or not at all: the distinct runs the entries name tile the uses,
        // so each run's highest operation position is found once, and checking an entry against
        // its instance's list costs one comparison however many variants share it.
        var runs: [Int: Int] = [:]  // first use -> count
        for index in 0..<parts.entryCount {
            let entry = parts.entries + index * Format.choiceEntrySize
            guard raw.int(entry) < layout.idCount else {
                throw fail(entry, "choice entry names id \(raw.u32(entry)) of \(layout.idCount)")
            }
            let first = raw.int(entry + 4)
            let count = raw.int(entry + 8)
            guard count > 0, UInt64(first) + UInt64(count) <= UInt64(parts.useCount) else {
                throw fail(entry + 4, "choice entry's \(count) uses from \(first) are not in the \(parts.useCount)")
            }
            guard runs.updateValue(count, forKey: first).map({ $0 == count }) ?? true else {
                throw fail(entry + 8, "choice entries name runs from use \(first) of two lengths")
            }
        }
        var highest: [Int: Int] = [:]  // first use -> highest operation position of the run
        var cursor = 0
        for (first, count) in runs.sorted(by: { $0.key < $1.key }) {
            guard first == cursor else {
                throw fail(
                    parts.uses + first * Format.choiceUseSize, "choice runs do not tile the uses at use \(first)")
            }
            highest[first] = (first..<first + count).map { raw.int(parts.uses + $0 * Format.choiceUseSize) }.max()
            cursor += count
        }
        guard cursor == parts.useCount else {
            throw fail(
                parts.uses + cursor * Format.choiceUseSize, "\(parts.useCount - cursor) choice uses belong to no run")
        }
        return highest
    }

    /// Each variant's group of entries: sorted by id, each naming an instance the variant has,
    /// whose list the run's highest position fits.
    private static func choiceVariants(_ raw: RawBytes, _ parts: ChoiceLayout, _ layout: Layout, highest: [Int: Int])
        throws(BinaryFormatError)
    {
        for variant in 0..<layout.variantCount {
            let record = parts.variants + variant * Format.choiceVariantSize
            let first = raw.int(record)
            let count = raw.int(record + 4)
            guard UInt64(first) + UInt64(count) <= UInt64(parts.entryCount), count > 0 || first == 0 else {
                throw fail(
                    record,
                    "variant \(variant)'s \(count) choice entries from \(first) are not in the \(parts.entryCount)")
            }
            var previous = -1
            for index in first..<first + count {
                let entry = parts.entries + index * Format.choiceEntrySize
                let handle = raw.int(entry)
                guard handle > previous else {
                    throw fail(entry, "variant \(variant)'s choice entries are not sorted by id, each once")
                }
                previous = handle
                let instance = raw.int(layout.variantRows + 4 * (variant * layout.idCount + handle))
                guard instance > 0 else {
                    throw fail(entry, "variant \(variant)'s choice entry names an instance it does not have")
                }
                // Groups and runs are shared: the positions must fit every list they serve.
                let operations = raw.int(layout.instanceRecords + (instance - 1) * Format.instanceRecordSize + 8)
                let top = highest[raw.int(entry + 4)]!
                guard top < operations else {
                    throw fail(entry + 4, "choice entry's uses name operation \(top) of a list of \(operations)")
                }
            }
        }
    }
}
