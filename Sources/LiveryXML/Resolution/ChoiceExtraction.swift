import LiveryModel

/// What a theme's personal choices change (format 1.3, section 9.2), found while resolving: for
/// every param whose value follows an overridable constant, how it follows (`ChoiceExpression`).
/// The compiler stores it, and the runtime evaluates it for the values an app gives, so a theme
/// from its compiled file takes a value with the same result as from its folder.
extension ThemeResolver.Pass {
    /// Records the uses of `instance`'s params that follow choices, from the syntax of its
    /// operations (`sources`, parallel to its operations), and returns them: the memo keeps
    /// them with the resolution (the same definitions give the same uses; `bench-brands.py`,
    /// validate of each tree).
    mutating func recordChoices(_ instance: ResolvedInstance, sources: [OperationSyntax]) -> [ChoiceUse] {
        let uses = choiceUses(instance, sources: sources)
        if !uses.isEmpty { resolver.choiceUses[traits, default: []] += uses }
        return uses
    }

    /// Records the uses of a resolution the memo kept.
    mutating func recordChoices(of entry: ResolutionMemo.Entry) {
        if !entry.choiceUses.isEmpty { resolver.choiceUses[traits, default: []] += entry.choiceUses }
    }

    /// The uses of `instance`'s params that follow choices.
    private mutating func choiceUses(_ instance: ResolvedInstance, sources: [OperationSyntax]) -> [ChoiceUse] {
        guard !overridable.isEmpty else { return [] }
        var uses: [ChoiceUse] = []
        let table = resolver.table(for: instance.component)
        for (position, operation) in sources.enumerated() where position < instance.operations.count {
            let signature = resolver.signature(of: operation, slot: resolver.slot(of: operation), in: table)
            for param in operation.params {
                var visiting: [String] = []
                guard let expression = choiceExpression(of: param.object, visiting: &visiting),
                    expression.followsChoices
                else { continue }
                let schema = signature?.params.first { $0.name == param.name }
                uses.append(
                    ChoiceUse(
                        id: instance.id, operation: position, param: param.name, expression: expression,
                        allowedValues: schema?.allowedValues ?? [], elementType: schema?.elementType))
            }
        }
        return uses
    }

    /// How `object`'s value follows the overridable constants of this pass; nil when it does not
    /// resolve (reported where it was resolved). Plain references are followed to their
    /// definitions, so only overridable constants remain as names.
    mutating func choiceExpression(of object: TypedObject, visiting: inout [String]) -> ChoiceExpression? {
        switch object.content {
        case .literal(let value):
            return .literal(value)
        case .array(let items):
            var expressions: [ChoiceExpression] = []
            for item in items {
                guard let expression = choiceExpression(of: item, visiting: &visiting) else { return nil }
                expressions.append(expression)
            }
            return folded(.array(expressions))
        case .reference(let name):
            return constantExpression(name, visiting: &visiting)
        case .derived(let derived):
            guard let base = choiceExpression(of: derived.base, visiting: &visiting) else { return nil }
            var modifiers = ChoiceModifiers(alpha: derived.modifiers.alpha, space: derived.modifiers.space)
            func operand(_ operand: ColorOperand, visiting: inout [String]) -> ChoiceExpression? {
                switch operand {
                case .color(let color): return .literal(.color(color))
                case .constant(let name): return constantExpression(name, visiting: &visiting)
                }
            }
            switch derived.modifiers.shift {
            case .lighten(let p)?: modifiers.shift = .lighten(p)
            case .darken(let p)?: modifiers.shift = .darken(p)
            case .mix(let other, let p)?:
                guard let color = operand(other, visiting: &visiting) else { return nil }
                modifiers.shift = .mix(color, amount: p)
            case nil: break
            }
            if let (against, ratio) = derived.modifiers.contrast {
                guard let background = operand(against, visiting: &visiting) else { return nil }
                modifiers.contrast = .init(background: background, minimumRatio: ratio)
            }
            return folded(.derived(base: base, modifiers: modifiers))
        }
    }

    /// The constant `name` as this pass finds it: a choice where it is overridable, else its
    /// definition followed.
    mutating func constantExpression(_ name: String, visiting: inout [String]) -> ChoiceExpression? {
        guard let constant = constants[name], !visiting.contains(name),
            visiting.count < resolver.maxReferenceDepth
        else { return nil }
        visiting.append(name)
        defer { visiting.removeLast() }
        guard let definition = choiceExpression(of: constant.object, visiting: &visiting) else { return nil }
        guard overridable.contains(name) else { return definition }
        return .constant(name: name, type: constant.object.type, otherwise: definition)
    }

    /// An expression that follows no choice, as the literal it evaluates to.
    func folded(_ expression: ChoiceExpression) -> ChoiceExpression? {
        guard !expression.followsChoices else { return expression }
        return expression.value(given: [:]).map(ChoiceExpression.literal)
    }
}
