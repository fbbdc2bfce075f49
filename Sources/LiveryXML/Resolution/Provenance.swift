import LiveryModel

// Provenance: where each effective operation of an instance came from. It is an opt-in of the
// resolver that costs nothing when not asked for: ordinary resolution (`ThemeResolver.resolve`)
// is untouched, and `explain` re-walks one identifier's definitions with the tables of a normal
// pass, using the same identity rule (`OperationList`). A test checks that both agree for every
// instance of every sample theme in every trait set.

/// Where one occurrence of an operation is written.
public struct OperationOrigin: Hashable, Sendable {
    public enum Source: Hashable, Sendable {
        /// Written inside the instance's own element.
        case instance
        /// Inherited from a class. `path` is how the instance reached it, outermost first:
        /// `["card", "rounded"]` when the instance uses `card`, which uses `rounded`.
        case `class`(name: String, path: [String])
    }

    /// The theme whose folder holds the file.
    public var themeID: String
    /// The configuration file (the layer), e.g. `Chat~dark.xml`.
    public var layer: String
    /// The layer's qualifiers; `.none` for a generic file.
    public var layerQualifiers: TraitSet
    /// The `<operation>` element.
    public var location: SourceLocation
    public var source: Source
    /// The instance element that brought the operation in (itself for an own operation).
    public var instanceLocation: SourceLocation

    public init(
        themeID: String, layer: String, layerQualifiers: TraitSet, location: SourceLocation,
        source: Source, instanceLocation: SourceLocation
    ) {
        self.themeID = themeID
        self.layer = layer
        self.layerQualifiers = layerQualifiers
        self.location = location
        self.source = source
        self.instanceLocation = instanceLocation
    }
}

/// A param written as `ref="..."`: the constants followed to reach the value, with where the
/// final definitions of these traits are.
public struct ConstantTrail: Hashable, Sendable {
    public var param: String
    /// `[("accent", location), ("brand", location)]` for `<color ref="accent"/>` where accent refers to brand.
    public var steps: [Step]

    public struct Step: Hashable, Sendable {
        public var constant: String
        public var location: SourceLocation
        public var themeID: String
    }

    /// How each derived colour on the way was computed, outermost first (format 1.3, section
    /// 9.1): "`brandPressed` = `brand` #FF3B30 darkened 0.15 in srgb = #D93229".
    public var derivations: [String] = []
}

/// One earlier occurrence of the same (name, state) that a later one replaced.
public struct OverriddenOperation: Hashable, Sendable {
    public var origin: OperationOrigin
    /// The params it would have set; nil when they do not resolve.
    public var params: [Param]?
    public var constants: [ConstantTrail]
}

/// An effective operation with its history.
public struct ExplainedOperation: Hashable, Sendable {
    public var operation: ResolvedOperation
    public var origin: OperationOrigin
    public var constants: [ConstantTrail]
    /// What it replaced, most recent first (the one it replaced directly is first).
    public var overridden: [OverriddenOperation]
}

/// An instance as resolved for one trait set, with every operation's provenance.
public struct InstanceExplanation: Hashable, Sendable {
    public var theme: ThemeInfo
    public var traits: TraitSet
    /// The dimensions of the theme's chain, which name `traits` and the layers' qualifiers.
    public var dimensions: TraitDimensions = .standard
    public var id: String
    public var component: String
    /// Every element that defines the instance for these traits, in layer order.
    public var definitions: [Definition]
    /// In effective order: exactly the operations `resolve` gives the instance.
    public var operations: [ExplainedOperation]

    public struct Definition: Hashable, Sendable {
        public var themeID: String
        public var layer: String
        public var location: SourceLocation
        public var classes: [String]
    }
}

/// A constant resolved for one trait set, with where its final definition is.
public struct ResolvedConstant: Hashable, Sendable {
    public var name: String
    public var value: Value
    public var themeID: String
    public var location: SourceLocation
    /// The constant it refers to, for `<color name="accent" ref="brand"/>`.
    public var reference: String?
    /// A derived colour's modifiers as written (format 1.3, section 9.1); nil for others.
    public var modifiers: WrittenColorModifiers? = nil
    /// Some definition of it says `overridable="true"` (format 1.3, section 9.2).
    public var overridable = false
    /// A derived colour's derivation as `explain` words it, its own line first; empty for others.
    public var derivation: [String] = []
}

/// A colour's modifiers as its element writes them, operands by name or hex: what design-token
/// export needs to write them again.
public struct WrittenColorModifiers: Hashable, Sendable {
    public enum Shift: Hashable, Sendable {
        case lighten(Double)
        case darken(Double)
        /// `operand` is a constant's name, or a hex colour as `#RRGGBBAA`.
        case mix(operand: String, amount: Double)
    }
    public var shift: Shift?
    public var alpha: Double?
    /// The constant's name or hex colour `contrast-with` names, and the ratio.
    public var contrastWith: (operand: String, minimumRatio: Double)?
    public var space: ModifierSpace
    /// The constant the colour starts from (its `ref`); nil when it starts from its own text.
    public var base: String?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.shift == rhs.shift && lhs.alpha == rhs.alpha && lhs.space == rhs.space && lhs.base == rhs.base
            && lhs.contrastWith?.operand == rhs.contrastWith?.operand
            && lhs.contrastWith?.minimumRatio == rhs.contrastWith?.minimumRatio
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(shift)
        hasher.combine(alpha)
        hasher.combine(space)
        hasher.combine(contrastWith?.operand)
    }

    init(_ syntax: ColorModifierSyntax) {
        func text(_ operand: ColorOperand) -> String {
            switch operand {
            // `#RRGGBB` when opaque, as a theme and Tokens Studio write it
            case .color(let color):
                color.hexString.hasSuffix("FF") ? String(color.hexString.dropLast(2)) : color.hexString
            case .constant(let name): name
            }
        }
        switch syntax.shift {
        case .lighten(let p)?: shift = .lighten(p)
        case .darken(let p)?: shift = .darken(p)
        case .mix(let operand, let amount)?: shift = .mix(operand: text(operand), amount: amount)
        case nil: shift = nil
        }
        alpha = syntax.alpha
        contrastWith = syntax.contrast.map { (text($0.operand), $0.minimumRatio) }
        space = syntax.space
    }
}

/// The names a theme chain defines in any of its files, whatever the traits: what typed
/// identifiers are generated from.
public struct ThemeNames: Hashable, Sendable {
    /// Instance id to component type.
    public var instances: [String: String]
    public var classes: Set<String>
    /// Constant name to its type.
    public var constants: [String: ValueType]
    /// The constants an app's user may replace (`overridable="true"`, format 1.3 section 9.2).
    public var overridable: Set<String> = []
    public init(instances: [String: String] = [:], classes: Set<String> = [], constants: [String: ValueType] = [:]) {
        self.instances = instances
        self.classes = classes
        self.constants = constants
    }
}

extension ThemeWorkspace {
    /// Why an instance looks as it does with `traits`: each effective operation with its theme,
    /// file, line, layer, the instance or class it is written in, and what it overrode.
    /// `value` is nil with no error when the theme has no such instance for these traits.
    /// With `keepingWhatResolves`, a theme with errors still explains what resolves (an editor's
    /// hover on a half-fixed theme). Without `checkingWholeTheme`, only this instance is resolved
    /// (with the constants and classes it uses), so the answer does not grow with the theme; the
    /// diagnostics are then those of reading the chain and of what that took, not the theme's check.
    public func explain(
        themeAt path: String, identifier: String, traits: TraitSet, keepingWhatResolves: Bool = false,
        checkingWholeTheme: Bool = true
    ) -> Checked<InstanceExplanation> {
        guard let (resolver, diagnostics) = resolver(forThemeAt: path), let info = resolver.chain.last?.info else {
            return Checked(value: nil, diagnostics: loadFailure(path))
        }
        let explanation = resolver.explain(identifier, traits: traits, wholeTheme: checkingWholeTheme)
        let all = Array(Set(diagnostics + resolver.diagnostics)).sorted()
        guard !all.hasErrors || keepingWhatResolves, var explanation else {
            return Checked(value: nil, diagnostics: all)
        }
        explanation.theme = info
        return Checked(value: explanation, diagnostics: all)
    }

    /// The constants of the theme for `traits`, sorted by name, with their final definitions.
    /// Without `checkingWholeTheme`, no instance is resolved: the constants alone are (an
    /// editor's hover), and the diagnostics are those of reading the chain and of the constants.
    public func constants(
        ofThemeAt path: String, traits: TraitSet, keepingWhatResolves: Bool = false, checkingWholeTheme: Bool = true
    ) -> Checked<[ResolvedConstant]> {
        guard let (resolver, diagnostics) = resolver(forThemeAt: path) else {
            return Checked(value: nil, diagnostics: loadFailure(path))
        }
        var pass = ThemeResolver.Pass(resolver: resolver, traits: traits)
        if checkingWholeTheme {
            _ = pass.run()
        } else {
            pass.fillTables(reporting: false) { _ in }
        }
        let all = Array(Set(diagnostics + resolver.diagnostics)).sorted()
        guard !all.hasErrors || keepingWhatResolves else { return Checked(value: nil, diagnostics: all) }
        let themes = resolver.themeIDsByFile()
        let constants = pass.constants.defined.compactMap { number, name -> ResolvedConstant? in
            guard let syntax = pass.constants[number], let value = pass.constantValue(number: number) else {
                return nil
            }
            var reference: String?
            var modifiers: WrittenColorModifiers?
            if case .reference(let target) = syntax.object.content { reference = target }
            if case .derived(let derived) = syntax.object.content {
                modifiers = WrittenColorModifiers(derived.modifiers)
                if case .reference(let target) = derived.base.content { modifiers?.base = target }
            }
            var constant = ResolvedConstant(
                name: name, value: value, themeID: themes[syntax.location.file] ?? "",
                location: syntax.location, reference: reference)
            constant.modifiers = modifiers
            if modifiers != nil { constant.derivation = pass.derivationLines(of: syntax.object, named: name) }
            constant.overridable = pass.overridable.contains(name)
            return constant
        }
        return Checked(value: constants, diagnostics: all)
    }

    /// Every instance id, class and constant name the theme and its ancestors define in any file.
    public func names(ofThemeAt path: String) -> Checked<ThemeNames> {
        guard let (resolver, diagnostics) = resolver(forThemeAt: path) else {
            return Checked(value: nil, diagnostics: loadFailure(path))
        }
        let chain = resolver.chain
        var names = ThemeNames()
        for theme in chain {
            for file in theme.files {
                for constant in file.constants {
                    names.constants[constant.name] = constant.object.type
                    if constant.overridable == true { names.overridable.insert(constant.name) }
                }
                for definition in file.classes { names.classes.insert(definition.name) }
                for instance in file.instances where names.instances[instance.id] == nil {
                    names.instances[instance.id] = instance.component
                }
            }
        }
        return Checked(value: names, diagnostics: diagnostics)
    }
}

extension ThemeResolver {
    /// Configuration file path (as locations spell it) to the id of the theme holding it.
    func themeIDsByFile() -> [String: String] {
        var map: [String: String] = [:]
        for theme in chain {
            let id = theme.info?.id ?? ""
            // everything a configuration file defines is located in that one file
            for file in theme.files {
                let path =
                    file.constants.first?.location.file ?? file.classes.first?.location.file
                    ?? file.instances.first?.location.file
                if let path { map[path] = id }
            }
        }
        return map
    }

    /// Provenance of one instance: a normal pass (so tables, checks and diagnostics are exactly
    /// those of `resolve`), then a walk of the instance's definitions that keeps the history.
    /// Without `wholeTheme`, the pass fills its tables and resolves this instance only: the same
    /// value, since a pass resolves each instance from the tables alone.
    func explain(_ id: String, traits: TraitSet, wholeTheme: Bool = true) -> InstanceExplanation? {
        var pass = Pass(resolver: self, traits: traits)
        let found: ResolvedInstance?
        if wholeTheme {
            found = pass.run().first { $0.id == id }
        } else {
            var definitions: [InstanceSyntax] = []
            pass.fillTables(reporting: false) { if $0.id == id { definitions.append($0) } }
            found = definitions.isEmpty ? nil : pass.resolveInstance(definitions)
        }
        guard let resolved = found else { return nil }

        let (places, definitions) = placedDefinitions(of: id, traits: traits)
        struct Occurrence {
            var operation: OperationSyntax
            var origin: OperationOrigin
            var history: [Occurrence]
        }
        // Classes by name as this pass sees them (the final definitions for these traits).
        var classMemo: [String: [Pass.ClassOperation]] = [:]

        let component = resolved.component
        var list = OperationList<Occurrence>()
        func add(_ occurrence: Occurrence) {
            var occurrence = occurrence
            // added once to learn what it replaces, then again carrying that history
            if let replaced = list.add(occurrence, identity: occurrence.operation.identity) {
                occurrence.history = [replaced] + replaced.history
                list.add(occurrence, identity: occurrence.operation.identity)
            }
        }
        var explainedDefinitions: [InstanceExplanation.Definition] = []
        for (definition, place) in definitions where definition.component == component {
            explainedDefinitions.append(
                .init(
                    themeID: place.themeID, layer: place.file.fileName, location: definition.location,
                    classes: definition.classes))
            for name in definition.classes {
                for (operation, path, owner) in pass.classOperations(name, visiting: [], memo: &classMemo) {
                    let ownerPlace = places[ObjectIdentifier(owner)] ?? place
                    let origin = OperationOrigin(
                        themeID: ownerPlace.themeID, layer: ownerPlace.file.fileName,
                        layerQualifiers: ownerPlace.file.qualifiers, location: operation.location,
                        source: .class(name: path.last ?? name, path: path),
                        instanceLocation: definition.location)
                    add(Occurrence(operation: operation, origin: origin, history: []))
                }
            }
            for operation in definition.operations {
                let origin = OperationOrigin(
                    themeID: place.themeID, layer: place.file.fileName, layerQualifiers: place.file.qualifiers,
                    location: operation.location, source: .instance, instanceLocation: definition.location)
                add(Occurrence(operation: operation, origin: origin, history: []))
            }
        }

        let themes = themeIDsByFile()
        var operations: [ExplainedOperation] = []
        let table = table(for: component)
        for occurrence in list.elements {
            let slot = slot(of: occurrence.operation)
            guard check(occurrence.operation, slot: slot, in: table),
                let params = pass.params(of: occurrence.operation, slot: slot, in: table)
            else { continue }
            let overridden = occurrence.history.map { earlier in
                OverriddenOperation(
                    origin: earlier.origin, params: pass.params(of: earlier.operation, component: component),
                    constants: pass.constantTrails(of: earlier.operation, themes: themes))
            }
            operations.append(
                ExplainedOperation(
                    operation: ResolvedOperation(
                        name: occurrence.operation.name, state: occurrence.operation.state, params: params),
                    origin: occurrence.origin, constants: pass.constantTrails(of: occurrence.operation, themes: themes),
                    overridden: overridden))
        }
        return InstanceExplanation(
            theme: chain.last?.info ?? ThemeInfo(id: "", name: ""), traits: traits, dimensions: dimensions, id: id,
            component: component, definitions: explainedDefinitions, operations: operations)
    }

    /// The theme and configuration file an element of the chain belongs to.
    private struct Place {
        var themeID: String
        var file: ConfigurationFile
    }

    /// The place of every class of the chain, and the definitions of instance `id` that apply
    /// with `traits`, with theirs, in layer order.
    private func placedDefinitions(of id: String, traits: TraitSet) -> (
        places: [ObjectIdentifier: Place], definitions: [(InstanceSyntax, Place)]
    ) {
        var places: [ObjectIdentifier: Place] = [:]
        var definitions: [(InstanceSyntax, Place)] = []
        for theme in chain {
            for file in theme.files {
                let place = Place(themeID: theme.info?.id ?? "", file: file)
                for definition in file.classes { places[ObjectIdentifier(definition)] = place }
                if file.qualifiers.applies(in: traits) {
                    for instance in file.instances where instance.id == id { definitions.append((instance, place)) }
                }
            }
        }
        return (places, definitions)
    }
}

extension ThemeResolver.Pass {
    /// An operation a class gives, the classes it comes through (outermost first) and the class
    /// that defines it.
    typealias ClassOperation = (OperationSyntax, [String], ClassSyntax)

    /// The operations class `name` gives, as this pass sees it (the final definitions for these
    /// traits), included classes first; each class is worked out once per `memo`.
    func classOperations(_ name: String, visiting: [String], memo: inout [String: [ClassOperation]])
        -> [ClassOperation]
    {
        guard let definition = classes[name], !visiting.contains(name) else { return [] }
        if let known = memo[name] { return known }
        var list = OperationList<ClassOperation>()
        for inner in definition.classes {
            for (operation, path, owner) in classOperations(inner, visiting: visiting + [name], memo: &memo) {
                list.add((operation, [name] + path, owner), identity: operation.identity)
            }
        }
        for operation in definition.operations {
            list.add((operation, [name], definition), identity: operation.identity)
        }
        memo[name] = list.elements
        return list.elements
    }

    /// For each param of `operation` that follows constants or derives a colour: the constants
    /// it goes through and the derivation's lines, sorted by param name.
    mutating func constantTrails(of operation: OperationSyntax, themes: [String: String]) -> [ConstantTrail] {
        operation.params.sorted { $0.name < $1.name }.compactMap { param -> ConstantTrail? in
            var steps: [ConstantTrail.Step] = []
            var object = param.object
            while case .reference(let name) = object.content, let constant = constants[name],
                !steps.contains(where: { $0.constant == name })
            {
                steps.append(
                    .init(constant: name, location: constant.location, themeID: themes[constant.location.file] ?? ""))
                object = constant.object
            }
            let derivations = derivationLines(of: param.object, named: param.name)
            guard !steps.isEmpty || !derivations.isEmpty else { return nil }
            return ConstantTrail(param: param.name, steps: steps, derivations: derivations)
        }
    }
}
