import LiveryModel

/// A `color` element of one configuration file as it resolves for one trait set: the colour an
/// editor draws a swatch for and, for a derived colour (format 1.3, section 9.1), how it came
/// about. Literal, referring and derived colours alike; colours inside arrays are not included.
public struct ResolvedColorElement: Hashable, Sendable {
    /// Whose value the element is: a constant's definition, or a param of an instance's or a
    /// class's operation.
    public var owner: SourceValue.Owner
    /// The byte offset of the element's `<` in its file.
    public var offset: Int
    public var location: SourceLocation
    /// The colour it resolves to (clipped, unrounded).
    public var color: Color
    /// The constant its `ref` names (for a derived colour, its base), or nil.
    public var reference: String?
    /// How a derived colour is computed; nil for a literal or a plain reference.
    public var derivation: ColorDerivation?
}

/// A derived colour's derivation for one trait set: its base, its modifiers with their operands
/// resolved, each step's result, and `explain`'s words for it.
public struct ColorDerivation: Hashable, Sendable {
    /// The colour the modifiers start from.
    public var base: Color
    /// The modifiers with operands resolved (late-bound, through the theme's final table).
    public var modifiers: ColorModifiers
    /// The modifiers as the element writes them: operands and the base by name or hex.
    public var written: WrittenColorModifiers
    /// Each step and the colour after it, in the order they apply.
    public var steps: [ColorModifiers.Step]
    /// The resulting colour.
    public var result: Color
    /// `explain`'s lines, this colour's first, then those of the derived colours it starts from:
    /// "`brandPressed` = `brand` #FF3B30 darkened 0.15 in srgb = #D93229".
    public var lines: [String]
    /// The ratio `contrast-with` reached against its background, and whether it met `min-ratio`.
    public var contrast: (ratio: Double, reached: Bool)? {
        for step in steps {
            if case .contrast(_, _, let ratio, let reached) = step.kind { return (ratio, reached) }
        }
        return nil
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.base == rhs.base && lhs.modifiers == rhs.modifiers && lhs.written == rhs.written && lhs.steps == rhs.steps
            && lhs.result == rhs.result && lhs.lines == rhs.lines
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(result)
        hasher.combine(lines)
    }
}

/// What reads a constant, for one trait set: the constants and the instances whose values
/// change when it does (directly, or through references, `mix` and `contrast-with`).
public struct ConstantDependents: Hashable, Sendable {
    /// Other constants, sorted.
    public var constants: [String]
    /// Instance ids, sorted.
    public var instances: [String]
}

extension ThemeWorkspace {
    /// Every `color` element of the configuration file at `file` (a file of the theme at `theme`
    /// or of one of its ancestors), resolved as the theme resolves it for `traits`: late-bound
    /// names find the theme's final definitions. Elements whose value does not resolve are left
    /// out. In the file's order.
    public func colorElements(inFileAt file: String, ofThemeAt theme: String, traits: TraitSet)
        -> [ResolvedColorElement]
    {
        guard let (resolver, _) = resolver(forThemeAt: theme),
            let configuration = Self.configurationFile(file, in: resolver.chain)
        else { return [] }
        var pass = ThemeResolver.Pass(resolver: resolver, traits: traits)
        pass.fillTables(reporting: false) { _ in }
        var result: [ResolvedColorElement] = []
        func add(_ object: TypedObject, named name: String, owner: SourceValue.Owner) {
            guard object.type == .color, case .color(let color)? = pass.value(of: object) else { return }
            var element = ResolvedColorElement(
                owner: owner, offset: Int(object.mark.offset), location: object.location, color: color)
            switch object.content {
            case .reference(let target):
                element.reference = target
            case .derived(let derived):
                if case .reference(let target) = derived.base.content { element.reference = target }
                element.derivation = pass.derivation(of: object, named: name)
            default: break
            }
            result.append(element)
        }
        for constant in configuration.constants {
            add(constant.object, named: constant.name, owner: .constant(name: constant.name))
        }
        for definition in configuration.classes {
            for operation in definition.operations {
                for param in operation.params {
                    add(
                        param.object, named: param.name,
                        owner: .class(
                            name: definition.name, operation: operation.name, state: operation.state, param: param.name
                        ))
                }
            }
        }
        for instance in configuration.instances {
            for operation in instance.operations {
                for param in operation.params {
                    add(
                        param.object, named: param.name,
                        owner: .instance(
                            id: instance.id, component: instance.component, operation: operation.name,
                            state: operation.state, param: param.name))
                }
            }
        }
        return result.sorted { $0.offset < $1.offset }
    }

    /// The constants and instances of the theme at `theme` whose values, for `traits`, read the
    /// constant `name`: what changes with it. Resolves the whole theme once.
    public func dependents(ofConstant name: String, themeAt theme: String, traits: TraitSet) -> ConstantDependents {
        guard let (resolver, _) = resolver(forThemeAt: theme) else {
            return ConstantDependents(constants: [], instances: [])
        }
        var pass = ThemeResolver.Pass(resolver: resolver, traits: traits, tracing: name)
        pass.fillTables(reporting: false) { _ in }
        var constants: [String] = []
        for (number, constant) in pass.constants.defined where constant != name {
            _ = pass.constantValue(number: number)
            if pass.constantReads[number]?.readTraced == true {
                constants.append(constant)
            }
        }
        let applies = pass.applies
        var instances: [String] = []
        for (id, all) in resolver.instances {
            let definitions = all.compactMap { applies[$0.layer] ? $0.syntax : nil }
            guard !definitions.isEmpty else { continue }
            pass.reads = ResolutionReads()
            _ = pass.resolveAfresh(definitions)
            if pass.reads.readTraced { instances.append(id) }
        }
        return ConstantDependents(constants: constants, instances: instances.sorted())
    }

    /// The configuration file at `path` among the chain's folders.
    static func configurationFile(_ path: String, in chain: [DecodedThemeFolder]) -> ConfigurationFile? {
        let folder = FileSystem.parent(of: path)
        let name = FileSystem.lastComponent(of: path)
        let theme =
            chain.last { $0.path == folder }
            ?? chain.last { FileSystem.lastComponent(of: $0.path) == FileSystem.lastComponent(of: folder) }
        return theme?.files.first { $0.fileName == name }
    }
}

extension ThemeResolver.Pass {
    /// A derived colour's derivation, or nil when it does not resolve.
    mutating func derivation(of object: TypedObject, named name: String) -> ColorDerivation? {
        guard case .derived(let derived) = object.content,
            let modifiers = colorModifiers(derived.modifiers, at: object.mark),
            case .color(let base)? = value(of: derived.base)
        else { return nil }
        var written = WrittenColorModifiers(derived.modifiers)
        if case .reference(let target) = derived.base.content { written.base = target }
        let derivation = modifiers.derive(from: base)
        return ColorDerivation(
            base: base, modifiers: modifiers, written: written, steps: derivation.steps, result: derivation.color,
            lines: derivationLines(of: object, named: name))
    }
}
