/// How a value follows from the theme's overridable constants (format 1.3, section 9.2): what a
/// theme keeps, per trait set, so that a value the app's user gives for a constant changes every
/// use of it and every colour derived from it, without the theme's sources.
public indirect enum ChoiceExpression: Hashable, Sendable {
    /// A value no choice changes.
    case literal(Value)
    /// The overridable constant `name` of type `type`: the value given for it (when it is of that
    /// type), else `otherwise`, the constant's own value (which may follow other choices).
    case constant(name: String, type: ValueType, otherwise: ChoiceExpression)
    /// An array some of whose items follow choices.
    case array([ChoiceExpression])
    /// A colour derived with modifiers whose base or operands follow choices.
    case derived(base: ChoiceExpression, modifiers: ChoiceModifiers)

    /// The value with `values` given, by constant name; nil when a derived colour's base or
    /// operand is not a colour (a choice cannot cause that: values are taken only of their
    /// constant's type).
    public func value(given values: [String: Value]) -> Value? {
        switch self {
        case .literal(let value):
            return value
        case .constant(let name, let type, let otherwise):
            if let given = values[name], given.type == type { return given }
            return otherwise.value(given: values)
        case .array(let items):
            var result: [Value] = []
            result.reserveCapacity(items.count)
            for item in items {
                guard let value = item.value(given: values) else { return nil }
                result.append(value)
            }
            return .array(result)
        case .derived(let base, let modifiers):
            guard case .color(let color)? = base.value(given: values),
                let resolved = modifiers.resolved(given: values)
            else { return nil }
            return .color(resolved.apply(to: color))
        }
    }

    /// Whether some choice can change the value.
    public var followsChoices: Bool {
        switch self {
        case .literal: return false
        case .constant: return true
        case .array(let items): return items.contains { $0.followsChoices }
        case .derived(let base, let modifiers): return base.followsChoices || modifiers.followsChoices
        }
    }

    /// The names of the constants the value follows.
    public var constantNames: Set<String> {
        switch self {
        case .literal: return []
        case .constant(let name, _, let otherwise): return otherwise.constantNames.union([name])
        case .array(let items): return items.reduce(into: []) { $0.formUnion($1.constantNames) }
        case .derived(let base, let modifiers):
            var names = base.constantNames
            if case .mix(let other, _)? = modifiers.shift { names.formUnion(other.constantNames) }
            if let contrast = modifiers.contrast { names.formUnion(contrast.background.constantNames) }
            return names
        }
    }

    /// Whether the expression names a constant `values` has a value for: `constantNames`
    /// intersected with the keys, without building a set (once per use per change of values).
    public func mentions(anyOf values: [String: Value]) -> Bool {
        switch self {
        case .literal: return false
        case .constant(let name, _, let otherwise): return values[name] != nil || otherwise.mentions(anyOf: values)
        case .array(let items): return items.contains { $0.mentions(anyOf: values) }
        case .derived(let base, let modifiers):
            if base.mentions(anyOf: values) { return true }
            if case .mix(let other, _)? = modifiers.shift, other.mentions(anyOf: values) { return true }
            return modifiers.contrast?.background.mentions(anyOf: values) ?? false
        }
    }

    /// Nesting depth: 1 for a literal, else 1 + the deepest operand.
    public var depth: Int {
        switch self {
        case .literal: return 1
        case .constant(_, _, let otherwise): return 1 + otherwise.depth
        case .array(let items): return 1 + (items.map(\.depth).max() ?? 0)
        case .derived(let base, let modifiers):
            var deepest = base.depth
            if case .mix(let other, _)? = modifiers.shift { deepest = max(deepest, other.depth) }
            if let contrast = modifiers.contrast { deepest = max(deepest, contrast.background.depth) }
            return 1 + deepest
        }
    }
}

/// `ColorModifiers` whose operand colours may follow choices.
public struct ChoiceModifiers: Hashable, Sendable {
    /// `ColorModifiers.Shift`, the mix colour an expression.
    public enum Shift: Hashable, Sendable {
        /// Towards white by the amount, 0...1.
        case lighten(Double)
        /// Towards black by the amount, 0...1.
        case darken(Double)
        /// Towards the colour by the amount, 0...1.
        case mix(ChoiceExpression, amount: Double)
    }

    /// `ColorModifiers.ContrastGuard`, the background an expression.
    public struct ContrastGuard: Hashable, Sendable {
        /// The colour the result must be readable on.
        public var background: ChoiceExpression
        /// 1...21.
        public var minimumRatio: Double
        /// A guard keeping `minimumRatio` on `background`.
        public init(background: ChoiceExpression, minimumRatio: Double) {
            self.background = background
            self.minimumRatio = minimumRatio
        }
    }

    /// At most one of lighten, darken, mix.
    public var shift: Shift?
    /// Replaces the alpha, 0...1.
    public var alpha: Double?
    /// Keeps the result readable on a background.
    public var contrast: ContrastGuard?
    /// The space the shift and the guard work in.
    public var space: ModifierSpace

    /// Modifiers applied in the format's order: shift, alpha, contrast guard.
    public init(shift: Shift? = nil, alpha: Double? = nil, contrast: ContrastGuard? = nil, space: ModifierSpace = .srgb)
    {
        self.shift = shift
        self.alpha = alpha
        self.contrast = contrast
        self.space = space
    }

    var followsChoices: Bool {
        if case .mix(let other, _)? = shift, other.followsChoices { return true }
        return contrast?.background.followsChoices ?? false
    }

    /// The modifiers with their operands evaluated; nil when an operand is not a colour.
    public func resolved(given values: [String: Value]) -> ColorModifiers? {
        var result = ColorModifiers(alpha: alpha, space: space)
        switch shift {
        case .lighten(let p)?: result.shift = .lighten(p)
        case .darken(let p)?: result.shift = .darken(p)
        case .mix(let other, let p)?:
            guard case .color(let color)? = other.value(given: values) else { return nil }
            result.shift = .mix(color, amount: p)
        case nil: break
        }
        if let contrast {
            guard case .color(let background)? = contrast.background.value(given: values) else { return nil }
            result.contrast = .init(background: background, minimumRatio: contrast.minimumRatio)
        }
        return result
    }
}

/// A constant the app's user may give a value for: its name and the type of value it takes.
public struct ChoiceConstant: Hashable, Sendable {
    /// The constant's name, as the theme defines it.
    public var name: String
    /// The type of value it takes.
    public var type: ValueType
    /// The constant `name`, taking values of `type`.
    public init(name: String, type: ValueType) {
        self.name = name
        self.type = type
    }
}

/// A param whose value follows choices: instance `id`'s operation at `operation` (its index in
/// the instance's effective operations), param `param`.
public struct ChoiceUse: Hashable, Sendable {
    /// The instance's id.
    public var id: String
    /// The operation's index in the instance's effective operations.
    public var operation: Int
    /// The param's name.
    public var param: String
    /// How the param's value follows the choices.
    public var expression: ChoiceExpression
    /// The values the param allows (an enumeration, or an array of them); empty: any.
    public var allowedValues: [String]
    /// The type of the param's array elements, when the schema fixes it.
    public var elementType: ValueType?

    /// A use of `param` of `id`'s operation at `operation`, its value `expression`.
    public init(
        id: String, operation: Int, param: String, expression: ChoiceExpression, allowedValues: [String] = [],
        elementType: ValueType? = nil
    ) {
        self.id = id
        self.operation = operation
        self.param = param
        self.expression = expression
        self.allowedValues = allowedValues
        self.elementType = elementType
    }
}

/// What the personal choices of a theme change (format 1.3, section 9.2): its overridable
/// constants, and per canonical trait set every param that follows them. Empty for a theme
/// without overridable constants.
public struct ChoiceTable: Hashable, Sendable {
    /// Sorted by name.
    public var constants: [ChoiceConstant]
    /// Keyed by canonical trait sets; each sorted by (id, operation, param). A trait set with
    /// no use may be missing.
    public var uses: [TraitSet: [ChoiceUse]]

    /// The table of `constants` and `uses` (sorted here; trait sets without uses dropped).
    public init(constants: [ChoiceConstant] = [], uses: [TraitSet: [ChoiceUse]] = [:]) {
        self.constants = constants.sorted { $0.name < $1.name }
        self.uses = uses.filter { !$0.value.isEmpty }.mapValues {
            $0.sorted { ($0.id, $0.operation, $0.param) < ($1.id, $1.operation, $1.param) }
        }
    }

    /// True for a theme without overridable constants.
    public var isEmpty: Bool { constants.isEmpty }

    /// The constant `name`, if the theme has it overridable.
    public func constant(_ name: String) -> ChoiceConstant? {
        constants.first { $0.name == name }
    }

    /// Why the theme cannot take a value: no overridable constant of that name, or another type.
    public enum Refusal: Hashable, Sendable {
        /// The theme has no overridable constant of that name.
        case notOverridable
        /// The constant takes values of `expected`.
        case wrongType(expected: ValueType)
    }

    /// The values the theme can take, and why each other is refused.
    public func accepting(_ values: [String: Value]) -> (accepted: [String: Value], refused: [String: Refusal]) {
        var accepted: [String: Value] = [:]
        var refused: [String: Refusal] = [:]
        for (name, value) in values {
            guard let constant = constant(name) else {
                refused[name] = .notOverridable
                continue
            }
            guard constant.type == value.type else {
                refused[name] = .wrongType(expected: constant.type)
                continue
            }
            accepted[name] = value
        }
        return (accepted, refused)
    }
}

/// A value that gives a param a value it cannot take (an enumeration value the param does not
/// allow, an array of another element type, an image the theme has no file for).
public struct ChoiceProblem: Error, Hashable, Sendable {
    /// The instance whose param cannot take the value.
    public var id: String
    /// The operation's name.
    public var operation: String
    /// The param's name.
    public var param: String
    /// The constants whose values led to it.
    public var constants: [String]
    /// What is wrong with the value, in words.
    public var message: String
}

extension ChoiceUse {
    /// The use's value with `values` given, checked as the front end checks a param; nil when
    /// no given value changes it.
    public func value(given values: [String: Value], traits: TraitSet, assets: AssetCatalog, operationName: String)
        -> Result<Value, ChoiceProblem>
    {
        func problem(_ message: String) -> Result<Value, ChoiceProblem> {
            .failure(
                ChoiceProblem(
                    id: id, operation: operationName, param: param,
                    constants: expression.constantNames.intersection(values.keys).sorted(), message: message))
        }
        guard let value = expression.value(given: values) else {
            return problem("an operand of a derived colour is not a colour")
        }
        if case .enumeration(let text) = value, !allowedValues.isEmpty, !allowedValues.contains(text) {
            return problem("'\(text)' is not a value of \(operationName)'s \(param)")
        }
        if case .array(let items) = value, let elementType, items.contains(where: { $0.type != elementType }) {
            return problem("\(operationName)'s \(param) is an array of \(elementType.rawValue)")
        }
        func missingImage(_ value: Value) -> String? {
            switch value {
            case .image(let image): return assets.contains(image.name, traits: traits) ? nil : image.name
            case .array(let items): return items.lazy.compactMap(missingImage).first
            default: return nil
            }
        }
        if let missing = missingImage(value) { return problem("no asset '\(missing)'") }
        return .success(value)
    }
}

extension ThemeVariants {
    /// The theme as an app running with `traits` sees it when its user has given `values` for
    /// overridable constants: the same as the front end resolves with them (section 9.2).
    /// Values the theme cannot take (`ChoiceTable.accepting`) are ignored; a value that gives a
    /// param a value it cannot take throws.
    public func resolved(for traits: TraitSet, overriding values: [String: Value]) throws(ChoiceProblem)
        -> ResolvedTheme
    {
        var theme = resolved(for: traits)
        let accepted = choices.accepting(values).accepted
        guard !accepted.isEmpty, let uses = choices.uses[axes.canonical(traits)] else { return theme }
        var index = 0
        for (position, instance) in theme.instances.enumerated() {
            while index < uses.count, uses[index].id < instance.id { index += 1 }
            var end = index
            while end < uses.count, uses[end].id == instance.id { end += 1 }
            guard end > index else { continue }
            theme.instances[position] = try instance.applying(
                uses[index..<end], given: accepted, traits: traits, assets: assets)
            index = end
        }
        return theme
    }
}

extension ResolvedInstance {
    /// The instance with `uses` (its own) evaluated with `values`: each use's param replaced.
    /// Uses that name an operation or param the instance does not have are skipped.
    public func applying(
        _ uses: some Collection<ChoiceUse>, given values: [String: Value], traits: TraitSet, assets: AssetCatalog
    ) throws(ChoiceProblem) -> ResolvedInstance {
        var result = self
        for use in uses where use.operation < result.operations.count {
            let operation = result.operations[use.operation]
            guard let param = operation.params.firstIndex(where: { $0.name == use.param }) else { continue }
            switch use.value(given: values, traits: traits, assets: assets, operationName: operation.name) {
            case .success(let value): result.operations[use.operation].params[param].value = value
            case .failure(let problem): throw problem
            }
        }
        return result
    }
}
