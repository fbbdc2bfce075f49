// Writing `CHOI`: the constants, then each variant's uses, every level stored once however often shared.
import LiveryModel

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
        let lists = try Self.choiceLists(table, variants: variants, handles: handles, operationCount: operationCount)
        var levels = ChoiceLevels()
        for variant in 0..<variantCount {
            let byHandle = lists[variant] ?? [:]
            var group: [Int] = []  // handle, first use, count, ...
            for handle in byHandle.keys.sorted() {
                let list = byHandle[handle]!.sorted { ($0.operation, $0.param) < ($1.operation, $1.param) }
                let first = try choiceRun(list, levels: &levels, writer: &writer)
                group += [handle, first, list.count]
            }
            levels.addVariant(group)
        }
        var section = ByteBuffer()
        section.u32(table.constants.count)
        section.u32(writer.literalCount)
        section.u32(writer.nodeCount)
        section.u32(writer.children.count)
        section.u32(variantCount)
        section.u32(levels.entryCount)
        section.u32(levels.useCount)
        section.u32(levels.allowed.count)
        section.bytes += constants.bytes
        section.bytes += writer.literals.bytes
        section.bytes += writer.nodes.bytes
        for child in writer.children { section.u32(child) }
        section.bytes += levels.variants.bytes
        section.bytes += levels.entries.bytes
        section.bytes += levels.uses.bytes
        for value in levels.allowed { section.u32(value) }
        return section.bytes
    }

    /// The uses of `table` by stored variant and handle, each variant's once: trait sets whose
    /// variants are equal share one stored variant, and must then share its uses.
    private static func choiceLists(
        _ table: ChoiceTable, variants: [TraitSet: Int], handles: [String: Int],
        operationCount: (Int, Int) -> Int?
    ) throws(BinaryFormatError) -> [Int: [Int: [ChoiceUse]]] {
        var lists: [Int: [Int: [ChoiceUse]]] = [:]
        var listed: [Int: Set<ChoiceUse>] = [:]
        for (traits, list) in table.uses {
            guard let variant = variants[traits] else {
                throw .unencodable("personal choices name trait set \(traits), which the theme does not store")
            }
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
        return lists
    }

    /// Where the run of `list`'s use records starts: written the first time, found after.
    private mutating func choiceRun(
        _ list: [ChoiceUse], levels: inout ChoiceLevels, writer: inout ChoiceWriter
    ) throws(BinaryFormatError) -> Int {
        let key = list.map(RunKey.init)
        if let known = levels.runs[key] { return known }
        let first = levels.useCount
        levels.runs[key] = first
        for use in list {
            levels.uses.u32(use.operation)
            levels.uses.u32(string(use.param))
            levels.uses.u32(try writer.node(use.expression, state: &self))
            levels.uses.u32(levels.allowed.count)
            levels.uses.u32(use.allowedValues.count)
            for value in use.allowedValues { levels.allowed.append(string(value)) }
            levels.uses.u8(use.elementType?.tag.rawValue ?? 0)
            levels.uses.zeros(3)
        }
        levels.useCount += list.count
        return first
    }
}

/// Three levels, each stored once however many refer to it: a variant names a group of entries
/// (variants with the same uses share one), an entry names an instance and a run of use records
/// (instances and variants with the same uses share one).
private struct ChoiceLevels {
    var variants = ByteBuffer()
    var entries = ByteBuffer()
    var uses = ByteBuffer()
    var entryCount = 0
    var useCount = 0
    var groups: [[Int]: Int] = [:]
    var runs: [[RunKey]: Int] = [:]
    var allowed: [UInt32] = []

    /// The next variant's record, naming `group` (handle, first use, count, ...), written once.
    mutating func addVariant(_ group: [Int]) {
        let first: Int
        if group.isEmpty {
            first = 0
        } else if let known = groups[group] {
            first = known
        } else {
            first = entryCount
            groups[group] = first
            for word in group { entries.u32(word) }
            entryCount += group.count / 3
        }
        variants.u32(first)
        variants.u32(group.count / 3)
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
