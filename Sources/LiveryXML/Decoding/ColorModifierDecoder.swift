import LiveryModel

/// Decodes a `color` element's modifier attributes (format 1.3, section 9.1). Each mistake is
/// one error at its attribute; an element with one is dropped, like any invalid value.
extension DecodingContext {
    /// Whether the element carries any modifier attribute: the common path (none) costs one scan.
    static func hasModifiers(_ element: XMLElement) -> Bool {
        element.attributes.contains { ColorModifierSyntax.attributes.contains($0.name) }
    }

    /// Modifier attributes on an element other than `color`: an error at each. True when there
    /// were any.
    mutating func rejectModifiers(on element: XMLElement) -> Bool {
        var found = false
        for attribute in element.attributes where ColorModifierSyntax.attributes.contains(attribute.name) {
            found = true
            error(
                .attributeInvalid,
                "'\(attribute.name)' derives a colour and belongs on a <color>, not on <\(element.name)>; remove it",
                at: source.location(ofAttribute: attribute.name, in: element))
        }
        return found
    }

    /// The modifiers of a `color` element, or nil with errors.
    mutating func colorModifiers(of element: XMLElement) -> ColorModifierSyntax? {
        var valid = true
        func at(_ name: String) -> SourceLocation { source.location(ofAttribute: name, in: element) }

        func fraction(_ name: String, range: ClosedRange<Double> = 0...1) -> Double? {
            guard let text = element.attribute(name) else { return nil }
            guard case .success(let value) = ValueSyntax.float(text), range.contains(value) else {
                error(
                    .valueInvalid,
                    "\(name) must be a number in \(ValueText.number(range.lowerBound))...\(ValueText.number(range.upperBound)), found '\(text)'",
                    at: at(name))
                valid = false
                return nil
            }
            return value
        }

        func operand(_ name: String) -> ColorOperand? {
            guard let text = element.attribute(name) else { return nil }
            let trimmed = String(ValueSyntax.trimmed(text))
            if trimmed.hasPrefix("#") {
                switch ValueSyntax.color(trimmed, format: "hex") {
                case .success(let color): return .color(color)
                case .failure(let problem):
                    error(.valueInvalid, "\(name): \(problem.message)", at: at(name))
                    valid = false
                    return nil
                }
            }
            guard checkName(trimmed, of: element, attribute: name) else {
                valid = false
                return nil
            }
            mentionedConstants.insert(trimmed)
            return .constant(trimmed)
        }

        var space = ModifierSpace.srgb
        if let text = element.attribute("space") {
            if let known = ModifierSpace(rawValue: String(ValueSyntax.trimmed(text))) {
                space = known
            } else {
                let names = ModifierSpace.allCases.map(\.rawValue)
                let (hint, fix) = Suggestions.suggest(text, in: names)
                diagnostics.append(
                    .error(
                        .valueInvalid,
                        "unknown space '\(text)'\(hint.isEmpty ? "; use one of \(names.joined(separator: ", "))" : hint)",
                        at: at("space"), fix: fix))
                valid = false
            }
        }

        // At most one of lighten, darken, mix: each one after the first (in the file) is the error.
        let shifts = element.attributes.map(\.name).filter { ["lighten", "darken", "mix"].contains($0) }
        for extra in shifts.dropFirst() {
            error(
                .attributeInvalid,
                "a colour takes one of lighten, darken and mix; '\(extra)' follows '\(shifts[0])': derive one colour from the other instead",
                at: at(extra))
            valid = false
        }
        var shift: ColorModifierSyntax.Shift?
        switch shifts.first {
        case "lighten": if let p = fraction("lighten") { shift = .lighten(p) }
        case "darken": if let p = fraction("darken") { shift = .darken(p) }
        case "mix":
            let other = operand("mix")
            if element.attribute("amount") == nil {
                error(.attributeMissing, "mix needs an amount in 0...1, e.g. amount=\"0.5\"", at: at("mix"))
                valid = false
            } else if let p = fraction("amount"), let other {
                shift = .mix(other, amount: p)
            }
        default: break
        }
        if shifts.first != "mix", element.attribute("amount") != nil {
            error(.attributeInvalid, "amount belongs with mix; add mix=\"#FFFFFF\" or remove it", at: at("amount"))
            valid = false
        }
        let alpha = fraction("alpha")
        var contrast: (ColorOperand, Double)?
        if element.attribute("contrast-with") != nil {
            let against = operand("contrast-with")
            let ratio = element.attribute("min-ratio") == nil ? 4.5 : fraction("min-ratio", range: 1...21)
            if let against, let ratio { contrast = (against, ratio) }
        } else if element.attribute("min-ratio") != nil {
            error(
                .attributeInvalid,
                "min-ratio belongs with contrast-with; add contrast-with=\"background\" or remove it",
                at: at("min-ratio"))
            valid = false
        }
        guard valid else { return nil }
        return ColorModifierSyntax(shift: shift, alpha: alpha, contrast: contrast, space: space)
    }
}
