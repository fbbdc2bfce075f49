/// What a component type accepts: the contract between themes and the app's bindings.
public struct Schema: Hashable, Sendable {
    public private(set) var components: [String: ComponentSchema]
    /// The trait dimensions schema files declare beside their components (format 1.3, section 10),
    /// in the order declared, unchecked: `TraitDimensions.adding(_:)` applies the rules.
    public var dimensions: [DimensionDeclaration] = []
    /// Per component, every operation it accepts, own and inherited (the nearest declaration
    /// wins): `operation(_:of:)` runs once per operation of every theme, so it is two hash
    /// lookups rather than a walk up the `extends` chain. Rebuilt whenever a component is added.
    private var available: [String: [String: OperationSchema]] = [:]

    public init(components: [ComponentSchema] = []) {
        self.components = [:]
        for component in components { self.components[component.name] = component }
        rebuildAvailable()
    }

    /// Adds or replaces a component (a later schema file may redeclare one).
    public mutating func add(_ component: ComponentSchema) {
        components[component.name] = component
        rebuildAvailable()
    }

    /// Adds every component of `other`, replacing same-named ones, and its dimensions after these.
    public mutating func merge(_ other: Schema) {
        for component in other.components.values { components[component.name] = component }
        dimensions += other.dimensions
        rebuildAvailable()
    }

    /// The operation as declared by the component or the nearest type it extends.
    public func operation(_ name: String, of component: String) -> OperationSchema? {
        available[component]?[name]
    }

    /// Every operation the component accepts, own and inherited, by name (`operation(_:of:)`
    /// for each): for a caller looking up many operations of one component. Nil for an unknown
    /// component.
    public func operations(of component: String) -> [String: OperationSchema]? {
        available[component]
    }

    private mutating func rebuildAvailable() {
        available = [:]
        for name in components.keys {
            var table: [String: OperationSchema] = [:]
            // A chain longer than the number of components has a cycle: stop there.
            var steps = 0
            var current: String? = name
            while let type = current, steps <= components.count, let schema = components[type] {
                for (operation, signature) in schema.operations where table[operation] == nil {
                    table[operation] = signature
                }
                current = schema.extends
                steps += 1
            }
            available[name] = table
        }
    }

    /// Every operation name available to a component, own and inherited, sorted.
    public func operationNames(of component: String) -> [String] {
        var names: Set<String> = []
        var visited: Set<String> = []
        var current: String? = component
        while let type = current, visited.insert(type).inserted, let schema = components[type] {
            names.formUnion(schema.operations.keys)
            current = schema.extends
        }
        return names.sorted()
    }

    /// The component followed by every type it extends, nearest first.
    public func lineage(of component: String) -> [String] {
        var result: [String] = []
        var current: String? = component
        while let type = current, !result.contains(type), let schema = components[type] {
            result.append(type)
            current = schema.extends
        }
        return result
    }
}

public struct ComponentSchema: Hashable, Sendable {
    public var name: String
    public var extends: String?
    public var operations: [String: OperationSchema]
    /// Where the component is declared (its `extends` attribute when it has one), for diagnostics.
    public var location: SourceLocation?

    public init(name: String, extends: String? = nil, operations: [OperationSchema], location: SourceLocation? = nil) {
        self.name = name
        self.extends = extends
        self.location = location
        self.operations = Dictionary(operations.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }
}

public struct OperationSchema: Hashable, Sendable {
    public var name: String
    /// Whether the operation may carry `state="..."`.
    public var allowsStates: Bool
    public var params: [ParamSchema]

    public init(name: String, allowsStates: Bool = false, params: [ParamSchema]) {
        self.name = name
        self.allowsStates = allowsStates
        self.params = params
    }
}

public struct ParamSchema: Hashable, Sendable {
    public var name: String
    public var type: ValueType
    /// For `enum` params: the values allowed.
    public var allowedValues: [String]?
    /// For `array` params: the type every element must have, when the schema says.
    public var elementType: ValueType?
    /// For `color` params: what the colour paints, for the contrast checks (format 1.1, 7.3).
    public var role: ColorRole?

    public init(
        name: String, type: ValueType, allowedValues: [String]? = nil, elementType: ValueType? = nil,
        role: ColorRole? = nil
    ) {
        self.name = name
        self.type = type
        self.allowedValues = allowedValues
        self.elementType = elementType
        self.role = role
    }
}

/// What a colour param paints: text is checked for contrast against the same instance's
/// background. The raw value is the schema file's `role` attribute.
public enum ColorRole: String, CaseIterable, Hashable, Sendable {
    case textColor = "text-color"
    case backgroundColor = "background-color"
}

/// A trait dimension as a schema file declares it, `<dimension name="density" values="compact
/// comfortable"/>`, with the places of its attributes for the findings about it.
public struct DimensionDeclaration: Hashable, Sendable {
    public var dimension: TraitDimension
    /// The `name` attribute.
    public var nameLocation: SourceLocation?
    /// The `values` attribute.
    public var valuesLocation: SourceLocation?

    public init(dimension: TraitDimension, nameLocation: SourceLocation? = nil, valuesLocation: SourceLocation? = nil) {
        self.dimension = dimension
        self.nameLocation = nameLocation
        self.valuesLocation = valuesLocation
    }
}

extension TraitDimensions {
    /// A declaration refused, and why.
    public struct Refusal: Hashable, Sendable {
        public var declaration: DimensionDeclaration
        public var error: DeclarationError
        /// Whether the name is an app-defined dimension's already, declared with other values.
        public var isRedeclaration = false
        /// That earlier declaration, when it is known.
        public var first: DimensionDeclaration?
        /// Where the cause is: the `name` attribute for a name, else the `values` attribute (for a
        /// redeclaration too: its values are what differs).
        public var location: SourceLocation? {
            switch error {
            case .duplicateName where isRedeclaration: declaration.valuesLocation ?? declaration.nameLocation
            case .duplicateName, .tooManyDimensions: declaration.nameLocation
            case .invalidWord(let word) where word == declaration.dimension.name: declaration.nameLocation
            default: declaration.valuesLocation ?? declaration.nameLocation
            }
        }
    }

    /// These dimensions followed by each of `declarations` that keeps the rules of format 1.3,
    /// section 10, in order; one refusal per declaration that does not. A declaration equal to
    /// one already in force (the same name and values, declared by two schema files) adds nothing.
    /// `known` are the declarations of the dimensions already in force, for naming the first of
    /// a redeclaration.
    public func adding(_ declarations: [DimensionDeclaration], known: [DimensionDeclaration] = []) -> (
        TraitDimensions, [Refusal]
    ) {
        var accepted = Array(appDefined)
        var sources = Dictionary(known.map { ($0.dimension.name, $0) }, uniquingKeysWith: { first, _ in first })
        var refusals: [Refusal] = []
        var result = self
        for declaration in declarations {
            let entry = declaration.dimension
            if let index = result.index(named: entry.name), index >= Self.standard.all.count {
                if result.all[index] != entry {
                    refusals.append(
                        Refusal(
                            declaration: declaration, error: .duplicateName(entry.name), isRedeclaration: true,
                            first: sources[entry.name]))
                }
                continue
            }
            do {
                result = try TraitDimensions(appDefined: accepted + [entry])
                accepted.append(entry)
                sources[entry.name] = declaration
            } catch {
                refusals.append(Refusal(declaration: declaration, error: error))
            }
        }
        return (result, refusals)
    }
}
