import LiveryModel

/// Applies themes to live components and keeps them styled as themes and traits change.
///
/// `style(_:as:)` is the one call an app makes per component. The applicator holds the
/// component weakly, applies the theme at once and, on every later switch, applies only the
/// operations whose values changed; properties a new theme no longer sets get their original
/// values back. Registration, re-targeting and removal cost O(1) whatever the number of live
/// components (amortised, like an array's growth); a released component's slot is reclaimed
/// whenever an apply pass meets it, and by a sweep of the whole table before the table grows,
/// so no per-component observer is needed.
///
/// How a switch stays cheap: components are grouped by (scope, identifier); a group holds the
/// prepared instance its members show. Switching computes, once per pair of prepared
/// instances, a plan of steps (set this decoded value, record an original first, revert that
/// key) and runs it over the group's members: one weak load per component and one specialised
/// setter call per changed operation, with no reference counting of plans, setters or values
/// and no allocation once originals are recorded.
@MainActor
public final class Applicator {
    /// The manager whose theme and traits the root scope follows.
    public let manager: ThemeManager
    /// Decoded `cache="true"` images shared by all components; emptied on theme switch.
    public let imageCache: ImageCache
    /// Turns image bytes into the app's image type; set it before styling components.
    public var imageDecoder: ImageDecoder? {
        didSet { invalidatePrepared() }
    }
    /// Called after each pass for every operation that changed, per identifier. Costs nothing
    /// when nil.
    public var onChange: (@MainActor (StyleChange) -> Void)?
    /// Counters of the most recent pass (a switch, a registration or a re-target).
    public var lastPass: ApplyStatistics { counters }
    // Invariant that makes the unchecked accesses safe: main actor only, each a single read or
    // write with no call out in between.
    @exclusivity(unchecked) var counters = ApplyStatistics()
    /// Where problems found while applying are reported: the manager's hook.
    public var diagnostics: DiagnosticHook { manager.diagnostics }

    /// The app-wide scope: `style(_:as:)` on the applicator uses it.
    public var rootScope: ThemeScope {
        // The root scope's handle is set by `init` and never removed.
        registry.handle(of: .root)!
    }

    /// The registered bindings, resolved.
    let bindings: BindingTable
    /// Interned (operation, state) keys, shared with the prepared themes.
    let operationKeys = OperationKeys()
    /// The components, their groups and scopes.
    let registry: ComponentRegistry
    /// The components' originals (the registry's `originals`, kept here for the apply path).
    let originals: OriginalsStore
    /// The buffer of the queue of plans a switch runs in its second phase; kept between passes,
    /// so that a warm switch allocates nothing.
    @exclusivity(unchecked) var pendingBuffer: ContiguousArray<PendingPlan> = []
    var prepared = PreparedThemeCache()
    /// How many times every prepared theme was let go (`invalidatePrepared`).
    var invalidations = 0
    /// How many prepared themes are kept (switching back and forth between a few themes
    /// and trait sets then costs only the plans' execution).
    public var preparedThemeLimit: Int {
        get { prepared.limit }
        set { prepared.limit = newValue }
    }
    /// The manager's observation; nil while init registers the first bindings (one refresh at
    /// the end is enough).
    var observation: ObservationToken?
    /// One-component passes since debug builds last checked every invariant (see `endPass`).
    private var passesSinceCheck = 0
    /// The components registered at that check: as many passes again make the next one due.
    private var componentsAtLastCheck = 0
    /// How many times debug builds checked every invariant (for the test that the checks stay
    /// linear).
    private(set) var invariantChecks = 0

    /// - Parameters:
    ///   - manager: the manager whose theme and traits the root scope follows.
    ///   - imageCache: where decoded `cache="true"` images are shared.
    ///   - register: registers the app's bindings before the first refresh, so that registering
    ///     many costs one preparation of the theme, not one per binding (the headless reference
    ///     components: `bindings: StandardBindings.register(in:)`, in `LiveryHeadless`).
    public init(
        manager: ThemeManager, imageCache: ImageCache = ImageCache(),
        bindings register: (Applicator) -> Void = { _ in }
    ) {
        self.manager = manager
        self.imageCache = imageCache
        self.bindings = BindingTable(schema: manager.schema, diagnostics: manager.diagnostics)
        registry = ComponentRegistry(operationKeys: operationKeys)
        originals = registry.originals
        let root = registry.addScope(parent: nil, overrides: ScopeOverrides())
        registry.setHandle(ThemeScope(applicator: self, scope: root), of: root)
        register(self)
        observation = manager.observe { [weak self] _ in self?.refresh() }
        refresh()
    }

    // MARK: Bindings

    /// Adds or replaces the binding of a component type; live components are re-applied.
    public func register<Target: AnyObject>(_ binding: ComponentBinding<Target>) {
        bindings.register(binding.erased)
        invalidatePrepared()
    }

    /// The operation names a component type's binding handles, inherited ones included.
    public func boundOperations(of component: String) -> [String] {
        bindings.binding(for: component)?.setters.keys.sorted() ?? []
    }

    /// Schema operations the bindings do not handle, as `component.operation`: a check an app's
    /// test can run to catch a forgotten setter.
    public func unboundOperations(in schema: Schema) -> [String] {
        schema.components.keys.sorted().flatMap { component in
            let bound = Set(boundOperations(of: component))
            return schema.operationNames(of: component).filter { !bound.contains($0) }.map { "\(component).\($0)" }
        }
    }

    func invalidatePrepared() {
        prepared.removeAll()
        invalidations += 1
        if observation != nil { refresh() }
    }

    // MARK: Styling

    /// Styles `component` as the theme's instance `identifier`: applies it at once and keeps it
    /// up to date. Calling it again with another identifier re-targets the component (only the
    /// difference is applied). The component is held weakly.
    public func style(_ component: AnyObject, as identifier: String) {
        style(component, as: identifier, scope: .root)
    }

    /// Ends a pass begun with `originals.enterPass()`. After the outermost, debug builds check
    /// every invariant of the registry and the originals when due (`assert` compiles out in
    /// release): after a pass over every component, and after passes over one component once
    /// they number as many as the components registered at the last check.
    @inline(__always)
    func endPass(overEveryComponent: Bool = false) {
        originals.leavePass()
        assert(originals.isInPass || invariantsHoldWhenDue(overEveryComponent: overEveryComponent))
    }

    /// Checks every invariant (O(components)) when due, for `endPass`: amortised over the
    /// one-component passes since the last check, so styling 10,000 components one by one costs
    /// checks linear in 10,000, not quadratic, and a broken invariant is still found within one
    /// round of as many passes as there are components.
    private func invariantsHoldWhenDue(overEveryComponent: Bool) -> Bool {
        passesSinceCheck += 1
        guard overEveryComponent || passesSinceCheck >= componentsAtLastCheck else { return true }
        passesSinceCheck = 0
        componentsAtLastCheck = registry.registeredCount
        invariantChecks += 1
        return registry.verifyInvariants()
    }

    /// Stops styling `component` and puts back every original value the theme replaced.
    public func unstyle(_ component: AnyObject) {
        originals.enterPass()
        defer { endPass() }
        guard let slot = registry.liveSlot(of: component) else { return }
        counters = ApplyStatistics()
        counters.operationsReverted += originals.revertAll(slot, object: component)
        registry.release(slot)
    }

    /// The identifier `component` is styled as, if it is.
    public func identifier(of component: AnyObject) -> String? {
        registry.liveSlot(of: component).map { registry.identifierName(of: registry.group(of: $0)) }
    }

    /// Slots in use, released components not yet swept included; O(1).
    public var registeredCount: Int { registry.registeredCount }

    /// Counts live components, reclaiming the slots of released ones; O(n), for tests and tools.
    public func liveComponentCount() -> Int {
        registry.releaseDeadSlots()
        return registry.registeredCount
    }

    /// The live components styled as `identifier` in any scope.
    public func components(styledAs identifier: String) -> [AnyObject] {
        guard let number = registry.identifiers.existingNumber(identifier) else { return [] }
        var result: [AnyObject] = []
        for scope in registry.scopeIDs {
            guard let group = registry.existingGroup(scope: scope, identifier: number) else { continue }
            registry.forEachLiveMember(of: group) { _, object in result.append(object) }
        }
        return result
    }

    /// A scope with its own theme or traits; see `ThemeScope`.
    public func makeScope(_ overrides: ScopeOverrides) -> ThemeScope {
        makeScope(overrides, parent: .root)
    }

    func makeScope(_ overrides: ScopeOverrides, parent: ScopeID) -> ThemeScope {
        let scope = registry.addScope(parent: parent, overrides: overrides)
        let handle = ThemeScope(applicator: self, scope: scope)
        registry.setHandle(handle, of: scope)
        refresh()
        return handle
    }

    func style(_ component: AnyObject, as identifier: String, scope: ScopeID) {
        originals.enterPass()
        defer { endPass() }
        let group = registry.group(scope: scope, identifier: registry.identifiers.number(identifier))
        counters = ApplyStatistics()
        if let existing = registry.liveSlot(of: component) {
            guard registry.group(of: existing) != group else { return }
            retarget(existing, object: component, to: group)
            registry.theme(of: scope)?.images.endPass()
            return
        }
        let slot = registry.register(component, in: group)
        guard let theme = registry.theme(of: scope), let instance = registry.instance(of: group) else {
            reportUnknownIdentifier(group: group)
            return
        }
        let type = ObjectIdentifier(Swift.type(of: component))
        if registry.acceptedClass(of: group) != type {
            let binding = theme.instances[instance.index].bindingIdentity
            if !bindings.recentlyAccepted(binding: binding, type: type) {
                guard accepts(theme, instance, component, group: group) else { return }
                bindings.rememberAccepted(theme.binding(of: instance), type: type)
            }
            registry.setAcceptedClass(type, of: group)
        }
        registry.setAccepted(true, slot)
        let plan = fullApplyPlan(theme, instance, group: group)
        var statistics = ApplyStatistics()
        applyInFull(
            plan, on: slot, object: component, theme: theme, group: group,
            context: ValueContext(images: theme.images), statistics: &statistics)
        counters = statistics
        theme.images.endPass()
        emitChanges(group: group, plan: plan, theme: theme, components: 1)
    }
}
