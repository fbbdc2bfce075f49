import LiveryModel

/// A binding without its Swift type: what the applicator keeps of a registered
/// `ComponentBinding` (its own setters), and, from `BindingTable.binding(for:)`, the same with
/// its inherited setters folded in, which prepared themes look setters up in.
@MainActor
final class ErasedBinding {
    let component: String
    /// The parent the binding names, nil when it names none.
    let parent: String?
    /// The Swift type bound. For messages only, through `typeName`: describing a type looks up
    /// its conformances, which a fresh process does by scanning the conformance records of every
    /// loaded image (`livery-bench launch`).
    let targetType: Any.Type
    var typeName: String { String(describing: targetType) }
    let setters: [String: OperationSetter]
    private let accepts: @MainActor (AnyObject) -> Bool
    /// Whether the bound type is a supertype of a type (inheritance is only from supertypes).
    let acceptsType: @MainActor (Any.Type) -> Bool
    /// Whether objects of a class are accepted, by class: `is` is a dynamic cast that walks the
    /// class hierarchy, and registration asks once per component.
    private var acceptedClasses: [ObjectIdentifier: Bool] = [:]
    /// The class asked last and the answer: registering a screen asks about the same class
    /// many times in a row.
    // Invariant that makes the unchecked access safe: main actor only, read or written whole,
    // with no call out in between.
    @exclusivity(unchecked) private var lastClass: (type: ObjectIdentifier, accepted: Bool)?

    init(
        component: String, parent: String?, targetType: Any.Type, setters: [String: OperationSetter],
        accepts: @escaping @MainActor (AnyObject) -> Bool, acceptsType: @escaping @MainActor (Any.Type) -> Bool
    ) {
        self.component = component
        self.parent = parent
        self.targetType = targetType
        self.setters = setters
        self.accepts = accepts
        self.acceptsType = acceptsType
    }

    /// The same binding with `setters` in place of its own.
    func withSetters(_ setters: [String: OperationSetter]) -> ErasedBinding {
        ErasedBinding(
            component: component, parent: parent, targetType: targetType, setters: setters,
            accepts: accepts, acceptsType: acceptsType)
    }

    func takes(_ object: AnyObject) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: object))
        if let last = lastClass, last.type == type { return last.accepted }
        let result: Bool
        if let known = acceptedClasses[type] {
            result = known
        } else {
            result = accepts(object)
            acceptedClasses[type] = result
        }
        lastClass = (type, result)
        return result
    }
}

/// The bindings a prepared theme uses, resolved on the main actor when the theme is made (so
/// that a theme can be prepared on another thread): every registered component type's, with
/// its inherited operations.
struct BindingSnapshot: Sendable {
    /// Kept alive here, they keep alive the setters that prepared operations point to.
    let bindings: [ErasedBinding]
    /// Component type -> index in `bindings`; a type without a binding is absent.
    let index: [String: BindingIndex]
}

/// Every binding an applicator knows, with inheritance resolved lazily and cached until a
/// binding or the schema changes.
@MainActor
final class BindingTable {
    private(set) var bindings: [String: ErasedBinding] = [:]
    private var resolved: [String: ErasedBinding] = [:]
    /// The setters of bindings a later registration replaced. Recorded originals point to their
    /// setters without retaining them (the first application records eight per component), so a
    /// setter must outlive its binding; registered bindings keep their own, and apps register a
    /// bounded number.
    private var replacedSetters: [OperationSetter] = []
    private(set) var generation = 0
    var schema: Schema {
        didSet { invalidate() }
    }
    let diagnostics: DiagnosticHook

    init(schema: Schema, diagnostics: DiagnosticHook) {
        self.schema = schema
        self.diagnostics = diagnostics
    }

    func register(_ binding: ErasedBinding) {
        if let replaced = bindings.updateValue(binding, forKey: binding.component) {
            replacedSetters.append(contentsOf: replaced.setters.values)
        }
        // The schema (development only) must not decide what a binding inherits, or a release
        // build, which has none, would apply less than the debug build it was tested with.
        if binding.parent == nil, let declared = schema.components[binding.component]?.extends,
            declared != StandardComponents.parent(of: binding.component)
        {
            diagnostics.report(
                .error(
                    .runtimeBindingInheritance,
                    "binding '\(binding.component)' (\(binding.typeName)) names no parent, but the schema says '\(binding.component)' extends '\(declared)'; a release build has no schema, so in both builds it inherits nothing: register it with extends: \"\(declared)\"",
                    at: schema.components[binding.component]?.location),
                finding: .bindingNamesNoParent(component: binding.component, declared: declared))
        }
        invalidate()
    }

    private func invalidate() {
        resolved.removeAll()
        cachedSnapshot = nil
        generation += 1
    }

    private var cachedSnapshot: BindingSnapshot?

    /// The last (binding, class) pairs found accepted: with an identifier per component every
    /// registration makes a new group, and asking the binding retains it and the theme's array
    /// of bindings (`livery-switch-bench` registration, whose screen interleaves four component
    /// types). A binding's answer for a class never changes, and the pairs hold their bindings,
    /// so an identity here is never another binding's.
    // Invariant that makes the unchecked accesses safe: main actor only, no call out during an
    // access.
    @exclusivity(unchecked) private var recentAcceptances: [(binding: ErasedBinding, type: ObjectIdentifier)] = []

    @inline(__always)
    func recentlyAccepted(binding: ObjectIdentifier?, type: ObjectIdentifier) -> Bool {
        guard let binding else { return false }
        for pair in recentAcceptances where ObjectIdentifier(pair.binding) == binding && pair.type == type {
            return true
        }
        return false
    }

    /// Forgets the pairs (and so stops holding their bindings).
    func forgetAcceptances() {
        recentAcceptances.removeAll()
    }

    func rememberAccepted(_ binding: ErasedBinding?, type: ObjectIdentifier) {
        guard let binding else { return }
        recentAcceptances.insert((binding, type), at: 0)
        if recentAcceptances.count > 8 { recentAcceptances.removeLast() }
    }

    /// Every registered binding, resolved: what prepared themes look setters up in (on any
    /// thread). Made once per generation; resolving reports inheritance problems, as
    /// `binding(for:)` does.
    func snapshot() -> BindingSnapshot {
        if let cachedSnapshot { return cachedSnapshot }
        var bindings: [ErasedBinding] = []
        var index: [String: BindingIndex] = [:]
        for component in self.bindings.keys.sorted() {
            guard let binding = binding(for: component) else { continue }
            index[component] = BindingIndex(bindings.count)
            bindings.append(binding)
        }
        let snapshot = BindingSnapshot(bindings: bindings, index: index)
        cachedSnapshot = snapshot
        return snapshot
    }

    /// The parent the binding names, else the standard schema's: the same in every build.
    func parent(of component: String) -> String? {
        bindings[component]?.parent ?? StandardComponents.parent(of: component)
    }

    func binding(for component: String) -> ErasedBinding? {
        if let cached = resolved[component] { return cached }
        guard let own = bindings[component] else { return nil }
        var setters = own.setters
        var visited: Set<String> = [component]
        var current = parent(of: component)
        while let ancestor = current, visited.insert(ancestor).inserted {
            if let binding = bindings[ancestor] {
                if binding.acceptsType(own.targetType) {
                    setters.merge(binding.setters) { mine, _ in mine }
                } else {
                    diagnostics.report(
                        .error(
                            .runtimeBindingInheritance,
                            "binding '\(component)' (\(own.typeName)) extends '\(ancestor)', whose type \(binding.typeName) is not a supertype of \(own.typeName); its operations are not inherited",
                            at: nil),
                        finding: .notInherited(component: component, ancestor: ancestor))
                }
            }
            current = parent(of: ancestor)
        }
        let result = own.withSetters(setters)
        resolved[component] = result
        return result
    }
}
