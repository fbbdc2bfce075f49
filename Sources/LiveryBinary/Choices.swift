// The optional `CHOI` section: what a theme's personal choices change (format 1.3, section 9.2),
// so that a theme launched from its compiled file takes a user's value with the same result as
// from its folder. docs/BinaryFormat.md describes every byte; keep the two in step.
import LiveryModel

extension Format {
    static let choicesHeaderSize = 32
    static let choiceConstantSize = 8
    static let choiceNodeSize = 48
    static let choiceVariantSize = 8
    static let choiceEntrySize = 12
    static let choiceUseSize = 24
    /// Deepest expression a reader accepts: evaluation recurses once per level.
    static let maxChoiceDepth = 512
}

/// Where the parts of `CHOI` are (absolute offsets), once verified.
struct ChoiceLayout {
    var present = false
    var constantCount = 0
    var constants = 0
    var literalCount = 0
    var literals = 0
    var nodeCount = 0
    var nodes = 0
    var childCount = 0
    var children = 0
    var variants = 0
    var entryCount = 0
    var entries = 0
    var useCount = 0
    var uses = 0
    var allowedCount = 0
    var allowed = 0
}

/// Node kinds, each written down.
enum ChoiceNodeKind: UInt8 {
    case literal = 1
    case constant = 2
    case array = 3
    case derived = 4
}

extension ModifierSpace {
    var diskCode: UInt8 {
        switch self {
        case .srgb: 0
        case .hsl: 1
        case .lch: 2
        }
    }

    init?(diskCode: UInt8) {
        switch diskCode {
        case 0: self = .srgb
        case 1: self = .hsl
        case 2: self = .lch
        default: return nil
        }
    }
}

// MARK: - Writing

extension EncoderState {
    /// The `CHOI` section for `table`: `variants` gives each canonical trait set's variant index
    /// (of `variantCount` stored variants), `handles` each id's handle, `operationCount` the
    /// length of each (variant, id)'s list.
    mutating func choiceSection(
        _ table: ChoiceTable, variants: [TraitSet: Int], variantCount: Int, handles: [String: Int],
        operationCount: (Int, Int) -> Int?
    ) throws(BinaryFormatError) -> [UInt8] {
        var writer = ChoiceWriter()
        var constants = ByteBuffer()
        for (index, constant) in table.constants.enumerated() {
            writer.constantIndex[constant.name] = UInt32(index)
            writer.constantTypes.append(constant.type)
            constants.u32(string(constant.name))
            constants.u8(constant.type.tag.rawValue)
            constants.zeros(3)
        }
        // Three levels, each stored once however many refer to it: a variant names a group of
        // entries (variants with the same uses share one), an entry names an instance and a run
        // of use records (instances and variants with the same uses share one).
        var lists: [Int: [Int: [ChoiceUse]]] = [:]
        var listed: [Int: Set<ChoiceUse>] = [:]
        for (traits, list) in table.uses {
            guard let variant = variants[traits] else {
                throw .unencodable("personal choices name trait set \(traits), which the theme does not store")
            }
            // Trait sets whose variants are equal share one stored variant, and its uses once.
            if let known = listed[variant] {
                guard known == Set(list) else {
                    throw .unencodable("trait set \(traits) shares a stored variant but not its personal choices")
                }
                continue
            }
            listed[variant] = Set(list)
            for use in list {
                guard let handle = handles[use.id], let count = operationCount(variant, handle), use.operation < count
                else {
                    throw .unencodable(
                        "a personal choice names operation \(use.operation) of '\(use.id)', which \(traits) does not have"
                    )
                }
                lists[variant, default: [:]][handle, default: []].append(use)
            }
        }
        var variantBytes = ByteBuffer()
        var entryBytes = ByteBuffer()
        var useBytes = ByteBuffer()
        var entryCount = 0
        var useCount = 0
        var groups: [[Int]: Int] = [:]
        var runs: [[RunKey]: Int] = [:]
        var allowed: [UInt32] = []
        for variant in 0..<variantCount {
            let byHandle = lists[variant] ?? [:]
            var group: [Int] = []  // handle, first use, count, ...
            for handle in byHandle.keys.sorted() {
                let list = byHandle[handle]!.sorted { ($0.operation, $0.param) < ($1.operation, $1.param) }
                let key = list.map(RunKey.init)
                let first: Int
                if let known = runs[key] {
                    first = known
                } else {
                    first = useCount
                    runs[key] = first
                    for use in list {
                        useBytes.u32(use.operation)
                        useBytes.u32(string(use.param))
                        useBytes.u32(try writer.node(use.expression, state: &self))
                        useBytes.u32(allowed.count)
                        useBytes.u32(use.allowedValues.count)
                        for value in use.allowedValues { allowed.append(string(value)) }
                        useBytes.u8(use.elementType?.tag.rawValue ?? 0)
                        useBytes.zeros(3)
                    }
                    useCount += list.count
                }
                group += [handle, first, list.count]
            }
            let first: Int
            if group.isEmpty {
                first = 0
            } else if let known = groups[group] {
                first = known
            } else {
                first = entryCount
                groups[group] = first
                for word in group { entryBytes.u32(word) }
                entryCount += group.count / 3
            }
            variantBytes.u32(first)
            variantBytes.u32(group.count / 3)
        }
        var section = ByteBuffer()
        section.u32(table.constants.count)
        section.u32(writer.literalCount)
        section.u32(writer.nodeCount)
        section.u32(writer.children.count)
        section.u32(variantCount)
        section.u32(entryCount)
        section.u32(useCount)
        section.u32(allowed.count)
        section.bytes += constants.bytes
        section.bytes += writer.literals.bytes
        section.bytes += writer.nodes.bytes
        for child in writer.children { section.u32(child) }
        section.bytes += variantBytes.bytes
        section.bytes += entryBytes.bytes
        section.bytes += useBytes.bytes
        for value in allowed { section.u32(value) }
        return section.bytes
    }
}

/// A use as its record stores it: everything but the instance, which its entry gives.
private struct RunKey: Hashable {
    var operation: Int
    var param: String
    var expression: ChoiceExpression
    var allowedValues: [String]
    var elementType: ValueType?

    init(_ use: ChoiceUse) {
        operation = use.operation
        param = use.param
        expression = use.expression
        allowedValues = use.allowedValues
        elementType = use.elementType
    }
}

/// Expressions as nodes, each stored once (equal subexpressions share a node), operands first.
struct ChoiceWriter {
    var literals = ByteBuffer()
    var literalCount = 0
    var literalIndex: [Value: UInt32] = [:]
    var nodes = ByteBuffer()
    var nodeCount = 0
    var nodeIndex: [ChoiceExpression: (index: UInt32, depth: Int)] = [:]
    var children: [UInt32] = []
    /// The constant records, by name, and their types.
    var constantIndex: [String: UInt32] = [:]
    var constantTypes: [ValueType] = []

    mutating func node(_ expression: ChoiceExpression, state: inout EncoderState) throws(BinaryFormatError) -> UInt32 {
        try entry(expression, state: &state).index
    }

    private mutating func entry(
        _ expression: ChoiceExpression, state: inout EncoderState
    ) throws(BinaryFormatError) -> (index: UInt32, depth: Int) {
        if let known = nodeIndex[expression] { return known }
        var kind = ChoiceNodeKind.literal
        var space: UInt8 = 0
        var shift: UInt8 = 0
        var flags: UInt8 = 0
        var depth = 1
        var a: UInt32 = 0
        var b: UInt32 = 0
        var c: UInt32 = 0
        var amount = 0.0
        var alpha = 0.0
        var ratio = 0.0
        switch expression {
        case .literal(.array(let items)):
            return try entry(.array(items.map(ChoiceExpression.literal)), state: &state)
        case .literal(let value):
            a = try literal(value, state: &state)
        case .constant(let name, let type, let otherwise):
            guard let index = constantIndex[name] else {
                throw .unencodable("personal choices use constant '\(name)', which is not listed as overridable")
            }
            guard type == constantTypes[Int(index)] else {
                throw .unencodable("constant '\(name)' is used as \(type.rawValue), listed as another type")
            }
            kind = .constant
            let inner = try entry(otherwise, state: &state)
            a = index
            b = inner.index
            depth = inner.depth + 1
        case .array(let items):
            kind = .array
            var entries: [UInt32] = []
            for item in items {
                let inner = try entry(item, state: &state)
                entries.append(inner.index)
                depth = max(depth, inner.depth + 1)
            }
            a = UInt32(children.count)
            b = UInt32(entries.count)
            children += entries
        case .derived(let base, let modifiers):
            kind = .derived
            space = modifiers.space.diskCode
            let inner = try entry(base, state: &state)
            a = inner.index
            depth = inner.depth + 1
            b = Format.none
            c = Format.none
            switch modifiers.shift {
            case .lighten(let p)?:
                shift = 1
                amount = p
            case .darken(let p)?:
                shift = 2
                amount = p
            case .mix(let other, let p)?:
                shift = 3
                amount = p
                let operand = try entry(other, state: &state)
                b = operand.index
                depth = max(depth, operand.depth + 1)
            case nil: break
            }
            if let given = modifiers.alpha {
                flags |= 1
                alpha = given
            }
            if let contrast = modifiers.contrast {
                flags |= 2
                ratio = contrast.minimumRatio
                let operand = try entry(contrast.background, state: &state)
                c = operand.index
                depth = max(depth, operand.depth + 1)
            }
            guard (0...1).contains(amount), (0...1).contains(alpha), flags & 2 == 0 || (1...21).contains(ratio) else {
                throw .unencodable("a colour modifier's number is out of range")
            }
        }
        guard depth <= Format.maxChoiceDepth else {
            throw .unencodable("a personal choice nests \(depth) deep; at most \(Format.maxChoiceDepth) can be stored")
        }
        let index = UInt32(nodeCount)
        nodes.u8(kind.rawValue)
        nodes.u8(space)
        nodes.u8(shift)
        nodes.u8(flags)
        nodes.u16(UInt16(depth))
        nodes.u16(0)
        nodes.u32(a)
        nodes.u32(b)
        nodes.u32(c)
        nodes.u32(0)
        nodes.f64(amount)
        nodes.f64(alpha)
        nodes.f64(ratio)
        nodeCount += 1
        nodeIndex[expression] = (index, depth)
        return (index, depth)
    }

    private mutating func literal(_ value: Value, state: inout EncoderState) throws(BinaryFormatError) -> UInt32 {
        if let known = literalIndex[value] { return known }
        var unused = 0
        try state.slot(
            EncoderState.PendingValue(name: Format.none, value: value), index: 0, nextElement: &unused,
            into: &literals)
        let index = UInt32(literalCount)
        literalCount += 1
        literalIndex[value] = index
        return index
    }
}

// MARK: - Verifying

extension Verifier {
    /// `CHOI`, when present: exact length; constants, literal slots, nodes (naming only earlier
    /// nodes, array children tiling the child list in order, depths that grow, numbers in range),
    /// uses (nodes, allowed values), entries (ids, runs of uses), variants (groups of entries
    /// sorted by id, each naming an instance the variant has, whose list every position fits)
    /// and allowed values.
    // Kept out of `verify`: inlined there, it slowed the checks of every file, with or without
    // `CHOI` (`Benchmarks/Scripts/launch-compare.py`, the compiled launch at N = 10,000).
    @inline(never)
    static func choices(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout)
        throws(BinaryFormatError)
    {
        guard let info = layout.sections.first(where: { $0.rawKind == SectionKind.choices.rawValue }) else { return }
        let offset = info.offset
        let length = info.length
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
        var childCursor = 0
        for index in 0..<parts.nodeCount {
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
        guard childCursor == parts.childCount else {
            throw fail(parts.children, "\(parts.childCount - childCursor) child entries belong to no array node")
        }
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
        for index in 0..<parts.allowedCount { try stringIndex(raw, parts.allowed + 4 * index, layout) }
        layout.choices = parts
    }
}

// MARK: - Reading

extension CompiledTheme {
    /// Whether the file carries personal choices (an optional `CHOI` section).
    public var hasChoices: Bool { layout.choices.present }

    /// The theme's overridable constants, sorted by name (empty without `CHOI`).
    public func choiceConstants() throws(BinaryFormatError) -> [ChoiceConstant] {
        let parts = layout.choices
        guard parts.present else { return [] }
        return try blocks.withLock { () throws(BinaryFormatError) -> [ChoiceConstant] in
            try blocks.check(parts.constants, parts.constantCount * Format.choiceConstantSize)
            return try (0..<parts.constantCount).map { (index: Int) throws(BinaryFormatError) -> ChoiceConstant in
                try choiceConstant(index)
            }
        }
    }

    /// Inside `blocks.withLock`, the constant's record checked.
    private func choiceConstant(_ index: Int) throws(BinaryFormatError) -> ChoiceConstant {
        let record = layout.choices.constants + index * Format.choiceConstantSize
        return ChoiceConstant(
            name: try checkedString(raw.u32(record)), type: ValueType(tag: ValueTag(rawValue: raw.u8(record + 4))!))
    }

    /// The uses of instance `handle` in `variant` (empty when nothing of it follows a choice).
    /// Reads only the variant's record, that instance's entry, its uses and the nodes they name,
    /// their blocks checked.
    public func choiceUses(of handle: InstanceHandle, in variant: VariantHandle) throws(BinaryFormatError)
        -> [ChoiceUse]
    {
        let parts = layout.choices
        guard parts.present, parts.entryCount > 0, Int(handle.rawValue) < layout.idCount,
            Int(variant.rawValue) < layout.variantCount
        else { return [] }
        return try blocks.withLock { () throws(BinaryFormatError) -> [ChoiceUse] in
            let group = try choiceGroup(of: Int(variant.rawValue))
            let wanted = Int(handle.rawValue)
            var low = group.lowerBound
            var high = group.upperBound
            while low < high {
                let middle = (low + high) / 2
                let entry = parts.entries + middle * Format.choiceEntrySize
                try blocks.check(entry, Format.choiceEntrySize)
                if raw.int(entry) < wanted { low = middle + 1 } else { high = middle }
            }
            guard low < group.upperBound, raw.int(parts.entries + low * Format.choiceEntrySize) == wanted else {
                return []
            }
            var budget = materializationBudget
            var cache: [Int: ChoiceExpression] = [:]
            return try choiceRun(at: parts.entries + low * Format.choiceEntrySize, cache: &cache, budget: &budget)
        }
    }

    /// Every use of `variant`, sorted by id (empty without `CHOI`): what an app that gives values
    /// evaluates once per change of them.
    public func choiceUses(in variant: VariantHandle) throws(BinaryFormatError) -> [ChoiceUse] {
        let parts = layout.choices
        guard parts.present, parts.entryCount > 0, Int(variant.rawValue) < layout.variantCount else { return [] }
        return try blocks.withLock { () throws(BinaryFormatError) -> [ChoiceUse] in
            var budget = materializationBudget
            var cache: [Int: ChoiceExpression] = [:]
            var result: [ChoiceUse] = []
            for index in try choiceGroup(of: Int(variant.rawValue)) {
                result += try choiceRun(
                    at: parts.entries + index * Format.choiceEntrySize, cache: &cache, budget: &budget)
            }
            return result
        }
    }

    /// Every use, by canonical trait set (for `materialize()`); inside `blocks.withLock`.
    func choiceTable(variantTraits: [Int: [TraitSet]], budget: inout Int) throws(BinaryFormatError) -> ChoiceTable {
        let parts = layout.choices
        guard parts.present else { return ChoiceTable() }
        var constants: [ChoiceConstant] = []
        for index in 0..<parts.constantCount { constants.append(try choiceConstant(index)) }
        var uses: [TraitSet: [ChoiceUse]] = [:]
        var cache: [Int: ChoiceExpression] = [:]
        for variant in 0..<layout.variantCount {
            var run: [ChoiceUse] = []
            for index in try choiceGroup(of: variant) {
                run += try choiceRun(at: parts.entries + index * Format.choiceEntrySize, cache: &cache, budget: &budget)
            }
            guard !run.isEmpty else { continue }
            for traits in variantTraits[variant] ?? [] { uses[traits] = run }
        }
        return ChoiceTable(constants: constants, uses: uses)
    }

    /// Inside `blocks.withLock`: the entries of `variant`'s group, its record checked.
    private func choiceGroup(of variant: Int) throws(BinaryFormatError) -> Range<Int> {
        let record = layout.choices.variants + variant * Format.choiceVariantSize
        try blocks.check(record, Format.choiceVariantSize)
        let first = raw.int(record)
        return first..<first + raw.int(record + 4)
    }

    /// Inside `blocks.withLock`: the uses the entry at `entry` names, for its instance.
    private func choiceRun(at entry: Int, cache: inout [Int: ChoiceExpression], budget: inout Int)
        throws(BinaryFormatError) -> [ChoiceUse]
    {
        let parts = layout.choices
        try blocks.check(entry, Format.choiceEntrySize)
        let field = layout.idStrings + 4 * raw.int(entry)
        try blocks.check(field, 4)
        let id = try checkedString(raw.u32(field))
        let first = raw.int(entry + 4)
        let count = raw.int(entry + 8)
        // Runs and groups are shared, so the uses built can outnumber the records: each counts.
        try spend(count, of: &budget)
        try blocks.check(parts.uses + first * Format.choiceUseSize, count * Format.choiceUseSize)
        var result: [ChoiceUse] = []
        for index in first..<first + count {
            result.append(
                try choiceUse(at: parts.uses + index * Format.choiceUseSize, id: id, cache: &cache, budget: &budget))
        }
        return result
    }

    private func choiceUse(at use: Int, id: String, cache: inout [Int: ChoiceExpression], budget: inout Int)
        throws(BinaryFormatError) -> ChoiceUse
    {
        let parts = layout.choices
        let first = raw.int(use + 12)
        let count = raw.int(use + 16)
        try blocks.check(parts.allowed + 4 * first, 4 * count)
        var allowed: [String] = []
        for entry in first..<first + count { allowed.append(try checkedString(raw.u32(parts.allowed + 4 * entry))) }
        let element = raw.u8(use + 20)
        return ChoiceUse(
            id: id, operation: raw.int(use), param: try checkedString(raw.u32(use + 4)),
            expression: try choiceExpression(raw.int(use + 8), cache: &cache, budget: &budget),
            allowedValues: allowed, elementType: element == 0 ? nil : ValueType(tag: ValueTag(rawValue: element)!))
    }

    /// Takes `count` from `budget`, throwing once it is spent.
    private func spend(_ count: Int, of budget: inout Int) throws(BinaryFormatError) {
        budget -= count
        guard budget >= 0 else { throw budgetSpent }
    }

    /// What reading past the materialisation budget throws.
    private var budgetSpent: BinaryFormatError {
        .limitExceeded(
            what: "materialised values", value: UInt64(materializationBudget) + 1, limit: UInt64(materializationBudget))
    }

    /// Node `index` as an expression. Recursion is bounded by the verified depth; shared nodes
    /// are built once, but a tree can still expand: `budget` stops it.
    private func choiceExpression(_ index: Int, cache: inout [Int: ChoiceExpression], budget: inout Int)
        throws(BinaryFormatError) -> ChoiceExpression
    {
        if let known = cache[index] { return known }
        try spend(1, of: &budget)
        let parts = layout.choices
        let node = parts.nodes + index * Format.choiceNodeSize
        try blocks.check(node, Format.choiceNodeSize)
        let a = raw.int(node + 8)
        let b = raw.u32(node + 12)
        let c = raw.u32(node + 16)
        let expression: ChoiceExpression
        switch ChoiceNodeKind(rawValue: raw.u8(node))! {
        case .literal:
            let slot = parts.literals + a * Format.valueSlotSize
            try blocks.check(slot, Format.valueSlotSize)
            guard let value = try value(atSlot: slot, budget: &budget) else { throw budgetSpent }
            expression = .literal(value)
        case .constant:
            try blocks.check(parts.constants + a * Format.choiceConstantSize, Format.choiceConstantSize)
            let constant = try choiceConstant(a)
            expression = .constant(
                name: constant.name, type: constant.type,
                otherwise: try choiceExpression(Int(b), cache: &cache, budget: &budget))
        case .array:
            try blocks.check(parts.children + 4 * a, 4 * Int(b))
            var items: [ChoiceExpression] = []
            for child in a..<a + Int(b) {
                items.append(try choiceExpression(raw.int(parts.children + 4 * child), cache: &cache, budget: &budget))
            }
            // An array of literals is one literal (as the writer takes it apart).
            var values: [Value] = []
            for item in items {
                guard case .literal(let value) = item else { break }
                values.append(value)
            }
            expression = values.count == items.count ? .literal(.array(values)) : .array(items)
        case .derived:
            let amount = raw.f64(node + 24)
            var modifiers = ChoiceModifiers(
                alpha: raw.u8(node + 3) & 1 != 0 ? raw.f64(node + 32) : nil,
                space: ModifierSpace(diskCode: raw.u8(node + 1))!)
            switch raw.u8(node + 2) {
            case 1: modifiers.shift = .lighten(amount)
            case 2: modifiers.shift = .darken(amount)
            case 3: modifiers.shift = .mix(try choiceExpression(Int(b), cache: &cache, budget: &budget), amount: amount)
            default: break
            }
            if raw.u8(node + 3) & 2 != 0 {
                modifiers.contrast = .init(
                    background: try choiceExpression(Int(c), cache: &cache, budget: &budget),
                    minimumRatio: raw.f64(node + 40))
            }
            expression = .derived(base: try choiceExpression(a, cache: &cache, budget: &budget), modifiers: modifiers)
        }
        cache[index] = expression
        return expression
    }
}
