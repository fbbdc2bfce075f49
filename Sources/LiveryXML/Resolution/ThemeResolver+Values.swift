import LiveryModel

// A pass's values: constants, colours with modifiers, and the checks that need a resolved value.
extension ThemeResolver.Pass {
    /// Checks that need the resolved value: enum values, array element types, assets.
    mutating func checkValue(
        _ value: Value, of param: ParamSyntax, signature: ParamSchema?, operation: OperationSyntax
    ) -> Bool {
        var valid = true
        if case .enumeration(let text) = value, let allowed = signature?.allowedValues, !allowed.contains(text) {
            let (hint, fix) = Suggestions.suggest(text, in: allowed)
            report(
                .error(
                    .enumValue,
                    "'\(text)' is not a value of \(operation.name)'s \(param.name)\(hint.isEmpty ? "; use one of \(allowed.joined(separator: ", "))" : hint)",
                    at: param.object.valueLocation, fix: fix))
            valid = false
        }
        if case .array(let items) = value, let elementType = signature?.elementType,
            let wrong = items.first(where: { $0.type != elementType })
        {
            report(
                .error(
                    .paramType,
                    "\(operation.name)'s \(param.name) is an array of \(elementType.rawValue), not of \(wrong.type.rawValue)",
                    at: param.object.location))
            valid = false
        }
        return valid && checkImages(in: value, at: param.object.mark)
    }

    /// The mark, not its location: a location is worked out only for a finding.
    mutating func checkImages(in value: Value, at mark: SourceMark) -> Bool {
        switch value {
        case .image(let image):
            resolver.referencedAssets.insert(image.name)
            guard resolver.assets.contains(image.name, traits: traits) else {
                reads.clean = false
                report(resolver.missingAsset(image.name, at: mark.location))
                return false
            }
            reads.assets.append(image.name)
            return true
        case .array(let items):
            return items.reduce(true) { checkImages(in: $1, at: mark) && $0 }
        case .float, .integer, .bool, .string, .color, .point, .size, .rect, .insets, .font, .enumeration:
            return true
        }
    }

    mutating func value(of object: TypedObject) -> Value? {
        switch object.content {
        case .literal(let value):
            return value
        case .array(let items):
            var values: [Value] = []
            for item in items {
                guard let value = value(of: item) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .reference(let name):
            return referencedValue(name, type: object.type, at: object.location)
        case .derived(let derived):
            return derivedColor(derived, at: object.mark)
        }
    }

    /// The value of the constant `name`, used as a `type` at `location`: unknown names,
    /// other types and cycles are reported there (format 2.1).
    mutating func referencedValue(_ name: String, type: ValueType, at location: @autoclosure () -> SourceLocation)
        -> Value?
    {
        resolver.referencedConstants.insert(name)
        guard let number = constants.names.number(of: name), let constant = constants[number] else {
            reads.clean = false
            // defined but broken: reported once, where it is broken
            if resolver.brokenConstants.contains(name) { return nil }
            let candidates = constants.all.filter { $0.object.type == type }.map(\.name)
            let (hint, fix) = resolver.suggestion(name, in: candidates)
            if let fix { resolver.suggestedConstants.insert(fix.replacement) }
            if hint.isEmpty, case let at = location(), let below = resolver.definitionBelow?(name, at) {
                // Moving is the fix: every theme keeps the value it had. Copying is the other
                // way, for a parent that should have a value of its own.
                var finding = Diagnostic.error(
                    .referenceUnknown,
                    "unknown constant '\(name)': it is defined in \(below.theme), which inherits from this theme, and a parent cannot see its children's definitions; move its definition up into this theme's <constants> (every theme keeps the value it had), or copy it up with the value this theme should have",
                    at: at, fix: below.fix)
                finding.notes.append(
                    Diagnostic.Note("'\(name)' is defined here, in \(below.theme)", at: below.location))
                report(finding)
                return nil
            }
            report(
                .error(
                    .referenceUnknown,
                    "unknown constant '\(name)'\(hint.isEmpty ? "; define it in <constants>" : hint)",
                    at: location(), fix: fix))
            return nil
        }
        reads.layers |= layers.bits(ofConstant: number)
        if name == traced { reads.readTraced = true }
        guard constant.object.type == type else {
            report(
                .error(
                    .referenceType,
                    "constant '\(name)' is \(Phrasing.a(constant.object.type.rawValue)) but is used as \(Phrasing.a(type.rawValue))",
                    at: location()))
            return nil
        }
        return constantValue(number: number)
    }

    /// A colour with modifiers (format 1.3, section 9.1): its base and the colours its
    /// modifiers name, looked up in this pass's final table, then the modifiers applied.
    mutating func derivedColor(_ derived: DerivedColorSyntax, at mark: SourceMark) -> Value? {
        guard let modifiers = colorModifiers(derived.modifiers, at: mark),
            case .color(let base)? = value(of: derived.base)
        else { return nil }
        let derivation = modifiers.derive(from: base)
        if !derivation.contrastReached, let rule = modifiers.contrast,
            case .contrast(_, _, let ratio, _)? = derivation.steps.last?.kind
        {
            report(
                .warning(
                    .contrastUnreachable,
                    "no lightening or darkening in \(modifiers.space.rawValue) reaches \(ValueText.number(rule.minimumRatio)):1 against \(rule.background.hexString); the closest is \(derivation.color.hexString) at \(ContrastRatio.text(ratio, required: rule.minimumRatio)):1. Choose a base or background further apart, or lower min-ratio",
                    at: mark.attributeLocation("contrast-with")))
        }
        return .color(derivation.color)
    }

    /// The modifiers with their operands resolved, or nil (reported) when one cannot be.
    mutating func colorModifiers(_ syntax: ColorModifierSyntax, at mark: SourceMark) -> ColorModifiers? {
        func operand(_ operand: ColorOperand, attribute: String) -> Color? {
            switch operand {
            case .color(let color): return color
            case .constant(let name):
                guard
                    case .color(let color)? = referencedValue(
                        name, type: .color, at: mark.attributeLocation(attribute))
                else { return nil }
                return color
            }
        }
        var modifiers = ColorModifiers(alpha: syntax.alpha, space: syntax.space)
        switch syntax.shift {
        case .lighten(let p)?: modifiers.shift = .lighten(p)
        case .darken(let p)?: modifiers.shift = .darken(p)
        case .mix(let other, let p)?:
            guard let color = operand(other, attribute: "mix") else { return nil }
            modifiers.shift = .mix(color, amount: p)
        case nil: break
        }
        if let (against, ratio) = syntax.contrast {
            guard let background = operand(against, attribute: "contrast-with") else { return nil }
            modifiers.contrast = .init(background: background, minimumRatio: ratio)
        }
        return modifiers
    }

    /// The value of the constant numbered `number` (`DefinitionNames`) as this pass finds it (nil
    /// where it has none, or it cannot be computed).
    mutating func constantValue(number: Int) -> Value? {
        if let cached = constantValues[number] {
            if let known = constantReads[number] { reads.formUnion(known) }
            return cached
        }
        guard let constant = constants[number] else { return nil }
        let name = constant.name
        // A literal reads nothing (most constants are: the brands benchmark).
        if case .literal(let value) = constant.object.content {
            constantValues[number] = .some(value)
            return value
        }
        if let start = resolvingConstants.firstIndex(of: name) {
            let cycle = (resolvingConstants[start...] + [name]).joined(separator: " -> ")
            report(.error(.referenceCycle, "constant '\(name)' refers to itself: \(cycle)", at: constant.location))
            return nil
        }
        guard resolvingConstants.count < resolver.maxReferenceDepth else {
            report(
                .error(
                    .limitExceeded,
                    "constant '\(name)' is reached through more than \(resolver.maxReferenceDepth) references; shorten the chain",
                    at: constant.location))
            return nil
        }
        if keeps {
            for entry in resolver.memo.constantEntries(for: constant) where holds(entry.reads) {
                let known = ResolutionReads(entry.reads)
                reads.formUnion(known)
                constantReads[number] = known
                constantValues[number] = .some(entry.value)
                return entry.value
            }
        }
        resolvingConstants.append(name)
        let outer = beginReading()
        let value = value(of: constant.object)
        let mine = endReading(outer)
        constantReads[number] = mine
        resolvingConstants.removeLast()
        constantValues[number] = .some(value)
        if let value, keeps, mine.reportedNothing {
            resolver.memo.insert(.init(reads: kept(mine), value: value), for: constant)
        }
        return value
    }
}
