import Foundation
import LiveryModel
import LiveryXML

/// Colours as an editor shows them (format 1.3, section 9.1): a swatch for what each `color`
/// element resolves to, and a derived colour's derivation on hover. Values are those of the
/// trait set the file's name qualifies, as hover's are.
extension LanguageServer {
    /// The `color` elements of the open file at `path`, resolved in the theme holding it.
    func resolvedColorElements(in path: String, theme: String) -> [ResolvedColorElement] {
        let traits = TraitSet(qualifyingFileNamed: (path as NSString).lastPathComponent) ?? .none
        return project?.workspace.colorElements(inFileAt: path, ofThemeAt: theme, traits: traits) ?? []
    }

    /// Whether the element carries a colour modifier: it derives its colour.
    static func isDerived(_ element: MarkupScan.Element) -> Bool {
        element.attributes.contains { ValueType.color.descriptor.modifierNames.contains($0.name) }
    }

    /// Swatches of resolved colours: one on the tag name of each `color` element that refers to
    /// a constant or derives its colour (its written text, if any, is the base and has its own).
    func resultSwatches(in symbols: FileSymbols, theme: String?) -> [(color: Color, start: Int, end: Int)] {
        let scan = symbols.scan
        let wanted = scan.elements.filter {
            ValueType(elementName: $0.name) == .color && ($0.attribute("ref") != nil || Self.isDerived($0))
        }
        guard let theme, !wanted.isEmpty else { return [] }
        let resolved = Dictionary(
            resolvedColorElements(in: symbols.path, theme: theme).map { ($0.offset, $0.color) },
            uniquingKeysWith: { first, _ in first })
        return wanted.compactMap { element in
            resolved[element.start].map { ($0, element.start + 1, element.nameEnd) }
        }
    }

    /// Whether `offset` is on the tag name of a colour whose swatch is a result, not written text.
    func isResultSwatch(at offset: Int, in symbols: FileSymbols) -> Bool {
        guard let index = symbols.scan.tag(at: offset) else { return false }
        let element = symbols.scan.elements[index]
        return ValueType(elementName: element.name) == .color && offset <= element.nameEnd
            && (element.attribute("ref") != nil || Self.isDerived(element))
    }

    /// Hover on a `color` element that derives its colour: the derivation step by step, as
    /// `explain` gives it, and the contrast its `contrast-with` reached.
    func derivedColorDescription(at offset: Int, symbols: FileSymbols, theme: String, traits: TraitSet) -> String? {
        let scan = symbols.scan
        guard let index = scan.tag(at: offset), ValueType(elementName: scan.elements[index].name) == .color,
            Self.isDerived(scan.elements[index])
        else { return nil }
        let start = scan.elements[index].start
        guard let element = resolvedColorElements(in: symbols.path, theme: theme).first(where: { $0.offset == start }),
            let derivation = element.derivation
        else {
            return "**derived colour**: does not resolve here; see the file's findings"
        }
        let name: String
        switch element.owner {
        case .constant(let constant): name = constant
        case .instance(let id, _, let operation, _, let param): name = "\(id).\(operation) \(param)"
        case .class(let owner, let operation, _, let param): name = "class \(owner): \(operation) \(param)"
        }
        return Self.derivationMarkdown(
            title: "**\(name)** = `\(element.color.hexString)` (derived colour)\(Self.noting(traits))",
            derivation)
    }

    /// A derivation as hover shows it: the title, each step with its colour, `explain`'s lines,
    /// and the contrast `contrast-with` gave.
    static func derivationMarkdown(title: String, _ derivation: ColorDerivation) -> String {
        var lines = [title, ""]
        let base = derivation.written.base.map { "`\($0)` " } ?? ""
        lines.append("1. base \(base)`\(derivation.base.hexString)`")
        for (number, step) in derivation.steps.enumerated() {
            lines.append("\(number + 2). \(stepText(step, derivation.written, space: derivation.modifiers.space))")
        }
        lines.append("")
        lines += derivation.lines.map { "- " + $0 }
        if let text = contrastText(derivation) {
            lines.append("")
            lines.append(text)
        }
        return lines.joined(separator: "\n")
    }

    static func stepText(_ step: ColorModifiers.Step, _ written: WrittenColorModifiers, space: ModifierSpace) -> String
    {
        let result = "`\(step.color.hexString)`"
        switch step.kind {
        case .shift(.lighten(let p)): return "lighten \(ValueText.number(p)) in \(space.rawValue) → \(result)"
        case .shift(.darken(let p)): return "darken \(ValueText.number(p)) in \(space.rawValue) → \(result)"
        case .shift(.mix(let other, let p)):
            var operand = "`\(other.hexString)`"
            if case .mix(let name, _)? = written.shift, !name.hasPrefix("#") { operand = "`\(name)` " + operand }
            return "mix \(ValueText.number(p)) with \(operand) in \(space.rawValue) → \(result)"
        case .alpha(let a): return "alpha \(ValueText.number(a)) → \(result)"
        case .contrast(let rule, let adjusted, _, _):
            let against = against(rule, written)
            guard let adjusted else { return "contrast with \(against): kept → \(result)" }
            let how: String
            switch adjusted {
            case .lighten(let p): how = "lightened \(ValueText.number(p))"
            case .darken(let p): how = "darkened \(ValueText.number(p))"
            case .mix: how = "mixed"
            }
            return "contrast with \(against): \(how) in \(space.rawValue) → \(result)"
        }
    }

    static func against(_ rule: ColorModifiers.ContrastGuard, _ written: WrittenColorModifiers) -> String {
        var text = "`\(rule.background.hexString)`"
        if let operand = written.contrastWith?.operand, !operand.hasPrefix("#") { text = "`\(operand)` " + text }
        return text
    }

    /// "Contrast with `surface` #FFFFFFFF: **4.52:1**, min-ratio 4.5 ✓", or nil without a guard.
    static func contrastText(_ derivation: ColorDerivation) -> String? {
        guard let rule = derivation.modifiers.contrast, let (ratio, reached) = derivation.contrast else { return nil }
        let required = ValueText.number(rule.minimumRatio)
        let mark = reached ? "✓" : "✗ unreachable: the closest colour is used"
        return
            "Contrast with \(against(rule, derivation.written)): **\(ContrastRatio.text(ratio, required: rule.minimumRatio)):1**, min-ratio \(required) \(mark)"
    }

    /// A derived constant's derivation, for hover on its name or a reference to it.
    func constantDerivation(_ constant: ResolvedConstant, theme: String, traits: TraitSet) -> ColorDerivation? {
        guard constant.modifiers != nil, let project else { return nil }
        return project.workspace.colorElements(inFileAt: constant.location.file, ofThemeAt: theme, traits: traits).first
        {
            $0.owner == .constant(name: constant.name)
        }?.derivation
    }
}
