// The expressions of `CHOI` as nodes and literal slots, each stored once, operands first.
import LiveryModel

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
        var node = ChoiceNode()
        switch expression {
        case .literal(.array(let items)):
            return try entry(.array(items.map(ChoiceExpression.literal)), state: &state)
        case .literal(let value):
            node.a = try literal(value, state: &state)
        case .constant(let name, let type, let otherwise):
            guard let index = constantIndex[name] else {
                throw .unencodable("personal choices use constant '\(name)', which is not listed as overridable")
            }
            guard type == constantTypes[Int(index)] else {
                throw .unencodable("constant '\(name)' is used as \(type.rawValue), listed as another type")
            }
            node.kind = .constant
            let inner = try entry(otherwise, state: &state)
            node.a = index
            node.b = inner.index
            node.depth = inner.depth + 1
        case .array(let items):
            node.kind = .array
            var entries: [UInt32] = []
            for item in items {
                let inner = try entry(item, state: &state)
                entries.append(inner.index)
                node.depth = max(node.depth, inner.depth + 1)
            }
            node.a = UInt32(children.count)
            node.b = UInt32(entries.count)
            children += entries
        case .derived(let base, let modifiers):
            node = try derived(base, modifiers, state: &state)
        }
        guard node.depth <= Format.maxChoiceDepth else {
            throw .unencodable(
                "a personal choice nests \(node.depth) deep; at most \(Format.maxChoiceDepth) can be stored")
        }
        let index = UInt32(nodeCount)
        node.write(to: &nodes)
        nodeCount += 1
        nodeIndex[expression] = (index, node.depth)
        return (index, node.depth)
    }

    /// The node of a derived colour: its base, the shift's amount and mix colour, the alpha and
    /// the contrast guard's ratio and background.
    private mutating func derived(
        _ base: ChoiceExpression, _ modifiers: ChoiceModifiers, state: inout EncoderState
    ) throws(BinaryFormatError) -> ChoiceNode {
        var node = ChoiceNode()
        node.kind = .derived
        node.space = modifiers.space.diskCode
        let inner = try entry(base, state: &state)
        node.a = inner.index
        node.depth = inner.depth + 1
        node.b = Format.none
        node.c = Format.none
        switch modifiers.shift {
        case .lighten(let p)?:
            node.shift = 1
            node.amount = p
        case .darken(let p)?:
            node.shift = 2
            node.amount = p
        case .mix(let other, let p)?:
            node.shift = 3
            node.amount = p
            let operand = try entry(other, state: &state)
            node.b = operand.index
            node.depth = max(node.depth, operand.depth + 1)
        case nil: break
        }
        if let given = modifiers.alpha {
            node.flags |= 1
            node.alpha = given
        }
        if let contrast = modifiers.contrast {
            node.flags |= 2
            node.ratio = contrast.minimumRatio
            let operand = try entry(contrast.background, state: &state)
            node.c = operand.index
            node.depth = max(node.depth, operand.depth + 1)
        }
        guard (0...1).contains(node.amount), (0...1).contains(node.alpha),
            node.flags & 2 == 0 || (1...21).contains(node.ratio)
        else {
            throw .unencodable("a colour modifier's number is out of range")
        }
        return node
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

/// One node record's fields; a literal node of depth 1 until the expression says otherwise.
private struct ChoiceNode {
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

    func write(to nodes: inout ByteBuffer) {
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
    }
}
