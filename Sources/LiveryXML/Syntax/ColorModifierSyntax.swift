import LiveryModel

/// A colour a modifier names (`mix`, `contrast-with`): a hex colour, or a colour constant's
/// name, looked up late-bound like a `ref`.
enum ColorOperand {
    case color(Color)
    case constant(String)
}

/// A `color` element's modifiers as written (format 1.3, section 9.1): the base is the element's
/// own value (its text or its `ref`); the operands are resolved for each trait set.
struct ColorModifierSyntax {
    enum Shift {
        case lighten(Double)
        case darken(Double)
        case mix(ColorOperand, amount: Double)
    }

    var shift: Shift?
    var alpha: Double?
    var contrast: (operand: ColorOperand, minimumRatio: Double)?
    var space: ModifierSpace

    /// The names of the attributes a `color` element may carry for its modifiers.
    static let attributes = ValueType.color.descriptor.modifierNames

    /// The constants the modifiers name (not the base's `ref`).
    var namedConstants: [String] {
        var names: [String] = []
        if case .mix(.constant(let name), _) = shift { names.append(name) }
        if case .constant(let name)? = contrast?.operand { names.append(name) }
        return names
    }
}

/// A derived colour: the base it starts from (a literal or a reference) and its modifiers. A
/// class so that a typed object stays small: most colours have no modifiers.
final class DerivedColorSyntax {
    let base: TypedObject
    let modifiers: ColorModifierSyntax

    init(base: TypedObject, modifiers: ColorModifierSyntax) {
        self.base = base
        self.modifiers = modifiers
    }
}
