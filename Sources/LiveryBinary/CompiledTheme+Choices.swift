// Reading `CHOI`: the overridable constants and the uses of a variant, built from their records.
import LiveryModel

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
