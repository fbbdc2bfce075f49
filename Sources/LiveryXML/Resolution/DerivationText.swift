import LiveryModel

/// A derived colour's derivation in words, step by step, as `explain` and the editor's hover
/// say it: "`brandPressed` = `brand` #FF3B30 darkened 0.15 in srgb = #D93229".
extension ThemeResolver.Pass {
    /// One line per derived colour met from `object` through references: the colour a param or
    /// constant names, then the colours its base and operands are derived from. `name` is what the
    /// object is called (a constant's name, or the param's).
    mutating func derivationLines(of object: TypedObject, named name: String, depth: Int = 0) -> [String] {
        guard depth < 16 else { return [] }
        switch object.content {
        case .reference(let target):
            guard let constant = constants[target] else { return [] }
            return derivationLines(of: constant.object, named: target, depth: depth + 1)
        case .derived(let derived):
            guard let modifiers = colorModifiers(derived.modifiers, at: object.mark),
                case .color(let base)? = value(of: derived.base)
            else { return [] }
            var baseName = ""
            if case .reference(let target) = derived.base.content { baseName = "`\(target)` " }
            var line = "`\(name)` = \(baseName)\(Self.hex(base))"
            let derivation = modifiers.derive(from: base)
            let names = operandNames(derived.modifiers)
            for step in derivation.steps {
                switch step.kind {
                case .shift(let shift):
                    line += " " + Self.describe(shift, mixName: names.mix) + " in \(modifiers.space.rawValue)"
                case .alpha(let alpha):
                    line += " with alpha \(ValueText.number(alpha))"
                case .contrast(let rule, let adjusted, let ratio, let reached):
                    let against = (names.contrast.map { "`\($0)` " } ?? "") + Self.hex(rule.background)
                    let target = "\(ValueText.number(rule.minimumRatio)):1 on \(against)"
                    let ratioText = ContrastRatio.text(ratio, required: rule.minimumRatio)
                    if let adjusted {
                        line +=
                            ", \(Self.describe(adjusted, mixName: nil)) in \(modifiers.space.rawValue) for \(target)"
                            + (reached ? " (\(ratioText):1)" : " (only \(ratioText):1: unreachable)")
                    } else {
                        line += ", already \(ratioText):1 on \(against)"
                    }
                }
            }
            line += " = \(Self.hex(derivation.color))"
            var lines = [line]
            if case .reference(let target) = derived.base.content, let constant = constants[target] {
                lines += derivationLines(of: constant.object, named: target, depth: depth + 1)
            }
            return lines
        default:
            return []
        }
    }

    private func operandNames(_ syntax: ColorModifierSyntax) -> (mix: String?, contrast: String?) {
        var mix: String?
        if case .mix(.constant(let name), _)? = syntax.shift { mix = name }
        var contrast: String?
        if case .constant(let name)? = syntax.contrast?.operand { contrast = name }
        return (mix, contrast)
    }

    static func describe(_ shift: ColorModifiers.Shift, mixName: String?) -> String {
        switch shift {
        case .lighten(let p): "lightened \(ValueText.number(p))"
        case .darken(let p): "darkened \(ValueText.number(p))"
        case .mix(let other, let p):
            "mixed \(ValueText.number(p)) with \(mixName.map { "`\($0)` " } ?? "")\(hex(other))"
        }
    }

    /// `#RRGGBB` for an opaque colour, `#RRGGBBAA` otherwise.
    static func hex(_ color: Color) -> String {
        let text = color.hexString
        return text.hasSuffix("FF") ? String(text.dropLast(2)) : text
    }
}
