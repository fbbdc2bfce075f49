import Foundation
import LiveryModel
import LiveryXML

/// A derived colour as the studio shows and edits it (format 1.3, section 9.1): where its
/// modifiers are written, its base, modifier and amount, the resulting colour, and what else
/// changes with it. The editor writes one attribute of the element that holds the modifiers.
public struct StudioDerivation: Codable, Hashable, Sendable {
    /// What holds the modifiers: `constant NAME`, or `this param`.
    public var holder: String
    /// The constant the colour starts from (its `ref`); nil when the base is written as a colour.
    public var baseConstant: String?
    /// The base colour, `#RRGGBBAA`.
    public var base: String
    /// `lighten`, `darken` or `mix`; nil when the colour only sets alpha or guards contrast.
    public var modifier: String?
    public var amount: Double?
    /// What `mix` mixes with: a constant's name or a hex colour.
    public var mixWith: String?
    public var alpha: Double?
    /// What `contrast-with` names, its `min-ratio` and the ratio reached.
    public var contrastWith: String?
    public var minRatio: Double?
    public var contrastRatio: Double?
    public var contrastReached: Bool?
    public var space: String
    /// The resulting colour, `#RRGGBBAA`.
    public var result: String
    /// `explain`'s lines for it: "`accentStrong` = `brand` #007AFF darkened 0.2 in srgb = #0062CC".
    public var lines: [String]
    /// The editable attributes and their text as written: `ref` (or `content` for a base
    /// written as a colour), `lighten`/`darken`/`amount`, `alpha`, `min-ratio`, `space`.
    public var fields: [String: String]
    /// The colour constants the base can be.
    public var baseChoices: [String]
    /// Where an edit of the derivation goes: the element holding the modifiers.
    public var target: StudioTarget
    /// What else changes with the base: the other colours derived from it, and the instances.
    public var sameBase: StudioFollowers?
    /// What changes with this colour's modifiers: the instances whose values it gives.
    public var instances: [String]
}

/// Colours and instances that change together.
public struct StudioFollowers: Codable, Hashable, Sendable {
    /// Colour constants derived from the same base (through `ref`, `mix` or `contrast-with`).
    public var derived: [String]
    /// Instance ids whose values read the base.
    public var instances: [String]
}

extension SourceValue {
    /// Whether the element carries a colour modifier: a `ref` on it names the base, and its
    /// attributes are edited in place, never turned into a literal.
    public var derivesColor: Bool {
        spans.attributes.contains { DerivedColorFields.modifierAttributes.contains($0.name) }
    }
}

/// The attributes the derived-colour editor reads and writes.
enum DerivedColorFields {
    static let modifierAttributes: Set<String> = [
        "lighten", "darken", "mix", "amount", "alpha", "contrast-with", "min-ratio", "space",
    ]
}

extension StudioSession {
    /// The derivation of a colour param, when it or a constant it refers to derives its colour:
    /// the first derived element met from the param through its references.
    func derivation(
        of param: Param, in explained: ExplainedOperation, instance: InstanceExplanation, trail: ConstantTrail?,
        themeFolder: String, themeID: String, traits: TraitSet, constants: [String: ResolvedConstant]
    ) -> StudioDerivation? {
        guard param.value.type == .color else { return nil }
        var elementsByFile: [String: [ResolvedColorElement]] = [:]
        func elements(_ file: String) -> [ResolvedColorElement] {
            if let known = elementsByFile[file] { return known }
            let found = workspace.colorElements(inFileAt: file, ofThemeAt: themeFolder, traits: traits)
            elementsByFile[file] = found
            return found
        }
        let operation = explained.operation
        let file = explained.origin.location.file
        // the param itself
        let paramOwner: SourceValue.Owner
        var target = StudioTarget(
            kind: .value, label: "", file: display(file), themeID: explained.origin.themeID,
            layer: explained.origin.layer, readOnly: readOnlyReason(file), operation: operation.name,
            state: operation.state.rawValue, param: param.name)
        switch explained.origin.source {
        case .instance:
            paramOwner = .instance(
                id: instance.id, component: instance.component, operation: operation.name, state: operation.state,
                param: param.name)
            target.ownerKind = "instance"
            target.ownerName = instance.id
            target.label = "this instance in \(explained.origin.themeID), \(explained.origin.layer)"
        case .class(let name, _):
            paramOwner = .class(name: name, operation: operation.name, state: operation.state, param: param.name)
            target.ownerKind = "class"
            target.ownerName = name
            target.label = "class \(name) in \(explained.origin.themeID), \(explained.origin.layer)"
        }
        target.version = version(file)
        if let derived = elements(file).last(where: { $0.owner == paramOwner })?.derivation {
            let instances: [String]
            if case .class(let name, _) = explained.origin.source {
                instances = ["every instance of class \(name)"]
            } else {
                instances = [instance.id]
            }
            return studioDerivation(
                derived, holder: "this param", target: target, instances: instances, themeFolder: themeFolder,
                traits: traits, constants: constants, excluding: nil)
        }
        // a constant it refers to, nearest first
        for step in trail?.steps ?? [] {
            let path = step.location.file
            guard
                let derived = elements(path).last(where: { $0.owner == .constant(name: step.constant) })?.derivation
            else { continue }
            var constantTarget = StudioTarget(
                kind: .value, label: "constant \(step.constant) (every use follows)", file: display(path),
                themeID: step.themeID, layer: (path as NSString).lastPathComponent, readOnly: readOnlyReason(path),
                ownerKind: "constant", ownerName: step.constant)
            constantTarget.version = version(path)
            let instances = workspace.dependents(ofConstant: step.constant, themeAt: themeFolder, traits: traits)
                .instances
            return studioDerivation(
                derived, holder: "constant \(step.constant)", target: constantTarget, instances: instances,
                themeFolder: themeFolder, traits: traits, constants: constants, excluding: step.constant)
        }
        return nil
    }

    private func studioDerivation(
        _ derived: ColorDerivation, holder: String, target: StudioTarget, instances: [String], themeFolder: String,
        traits: TraitSet, constants: [String: ResolvedConstant], excluding: String?
    ) -> StudioDerivation {
        let written = derived.written
        var fields: [String: String] = ["space": written.space.rawValue]
        var modifier: String?
        var amount: Double?
        var mixWith: String?
        switch written.shift {
        case .lighten(let p)?:
            modifier = "lighten"
            amount = p
            fields["lighten"] = ValueText.number(p)
        case .darken(let p)?:
            modifier = "darken"
            amount = p
            fields["darken"] = ValueText.number(p)
        case .mix(let operand, let p)?:
            modifier = "mix"
            amount = p
            mixWith = operand
            fields["amount"] = ValueText.number(p)
        case nil: break
        }
        if let alpha = written.alpha { fields["alpha"] = ValueText.number(alpha) }
        if let contrast = written.contrastWith { fields["min-ratio"] = ValueText.number(contrast.minimumRatio) }
        if let base = written.base {
            fields["ref"] = base
        } else {
            fields["content"] = Self.hex(derived.base)
        }
        var sameBase: StudioFollowers?
        if let base = written.base {
            let dependents = workspace.dependents(ofConstant: base, themeAt: themeFolder, traits: traits)
            sameBase = StudioFollowers(
                derived: dependents.constants.filter { $0 != excluding && constants[$0]?.modifiers != nil },
                instances: dependents.instances)
        }
        let contrast = derived.contrast
        return StudioDerivation(
            holder: holder, baseConstant: written.base, base: derived.base.hexString, modifier: modifier,
            amount: amount, mixWith: mixWith, alpha: written.alpha, contrastWith: written.contrastWith?.operand,
            minRatio: written.contrastWith?.minimumRatio, contrastRatio: contrast?.ratio,
            contrastReached: contrast?.reached, space: written.space.rawValue, result: derived.result.hexString,
            lines: derived.lines, fields: fields,
            baseChoices: constants.values.filter { $0.value.type == .color && $0.name != excluding }.map(\.name)
                .sorted(),
            target: target, sameBase: sameBase, instances: instances)
    }
}
