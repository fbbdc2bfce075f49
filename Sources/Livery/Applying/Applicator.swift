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
    @exclusivity(unchecked) var counters = ApplyStatistics()
    /// Where problems found while applying are reported: the manager's hook.
    public var diagnostics: DiagnosticHook { manager.diagnostics }

    /// The app-wide scope: `style(_:as:)` on the applicator uses it.
    public private(set) var rootScope: ThemeScope!

    let bindings: BindingTable
    let operationKeys = OperationKeys()

    let slots: SlotStorage
    @exclusivity(unchecked) var freeSlots: [Int32] = []
    let slotByObject = SlotIndex()
    // The registry's arrays are read and written by index from the main actor only, and no
    // access spans a call into app code: dynamic exclusivity checks on them would be pure cost
    // on the per-component path.
    @exclusivity(unchecked) var groups: ContiguousArray<Group> = []
    /// How many passes that call app code are running (they nest when a setter re-enters), and
    /// the memory of originals given back meanwhile, freed when the outermost ends.
    @exclusivity(unchecked) var passDepth = 0
    @exclusivity(unchecked) var retiredMemory: [(memory: UnsafeMutableRawPointer, size: Int, alignment: Int)] = []
    @exclusivity(unchecked) var scopes: [ScopeState] = []
    let identifiers = IdentifierTable()
    /// The buffer of the queue of plans a switch runs in its second phase; kept between passes,
    /// so that a warm switch allocates nothing.
    @exclusivity(unchecked) var pendingBuffer: ContiguousArray<PendingPlan> = []
    var prepared = PreparedThemeCache()
    /// How many prepared themes are kept (switching back and forth between a few themes
    /// and trait sets then costs only the plans' execution).
    public var preparedThemeLimit: Int {
        get { prepared.limit }
        set { prepared.limit = newValue }
    }
    var observation: ObservationToken?
    /// True while init registers the first bindings: one refresh at the end is enough.
    var isStarting = true

    /// - Parameters:
    ///   - manager: the manager whose theme and traits the root scope follows.
    ///   - imageCache: where decoded `cache="true"` images are shared.
    ///   - register: registers the app's bindings before the first refresh, so that registering
    ///     many costs one preparation of the theme, not one per binding (the headless reference
    ///     components: `bindings: StandardBindings.register(in:)`, in `LiveryHeadless`).
    public init(manager: ThemeManager, imageCache: ImageCache = ImageCache(),
                bindings register: (Applicator) -> Void = { _ in }) {
        self.manager = manager
        self.imageCache = imageCache
        self.bindings = BindingTable(schema: manager.schema, diagnostics: manager.diagnostics)
        self.slots = SlotStorage(bindings: bindings)
        scopes.append(ScopeState(parent: -1, overrides: ScopeOverrides()))
        rootScope = ThemeScope(applicator: self, index: 0)
        scopes[0].handle = rootScope
        register(self)
        isStarting = false
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
        if !isStarting { refresh() }
    }

    // MARK: Styling

    /// Styles `component` as the theme's instance `identifier`: applies it at once and keeps it
    /// up to date. Calling it again with another identifier re-targets the component (only the
    /// difference is applied). The component is held weakly.
    public func style(_ component: AnyObject, as identifier: String) {
        style(component, as: identifier, scope: 0)
    }

    /// Stops styling `component` and puts back every original value the theme replaced.
    public func unstyle(_ component: AnyObject) {
        enterPass()
        defer { leavePass() }
        guard let slot = liveSlot(of: component) else { return }
        counters = ApplyStatistics()
        counters.operationsReverted += revertAll(slot: slot, object: component)
        releaseSlot(slot)
    }

    /// The identifier `component` is styled as, if it is.
    public func identifier(of component: AnyObject) -> String? {
        liveSlot(of: component).map { identifiers.names[Int(groups[Int(slots.base[Int($0)].group)].identifier)] }
    }

    /// Slots in use, released components not yet swept included; O(1).
    public var registeredCount: Int { slotByObject.count }

    /// Counts live components, reclaiming the slots of released ones; O(n), for tests and tools.
    public func liveComponentCount() -> Int {
        releaseDeadSlots()
        return slotByObject.count
    }

    /// The live components styled as `identifier` in any scope.
    public func components(styledAs identifier: String) -> [AnyObject] {
        guard let number = identifiers.existingNumber(identifier) else { return [] }
        var result: [AnyObject] = []
        for scope in scopes.indices {
            guard let group = existingGroup(scope: Int32(scope), identifier: number) else { continue }
            forEachLiveMember(of: group) { _, object in result.append(object) }
        }
        return result
    }

    /// A scope with its own theme or traits; see `ThemeScope`.
    public func makeScope(_ overrides: ScopeOverrides) -> ThemeScope {
        makeScope(overrides, parent: 0)
    }

    func makeScope(_ overrides: ScopeOverrides, parent: Int32) -> ThemeScope {
        let index = Int32(scopes.count)
        scopes.append(ScopeState(parent: parent, overrides: overrides))
        let handle = ThemeScope(applicator: self, index: index)
        scopes[Int(index)].handle = handle
        refresh()
        return handle
    }

    func style(_ component: AnyObject, as identifier: String, scope: Int32) {
        enterPass()
        defer { leavePass() }
        let group = group(scope: scope, identifier: intern(identifier))
        counters = ApplyStatistics()
        if let existing = liveSlot(of: component) {
            let from = slots.base[Int(existing)].group
            guard from != group else { return }
            retarget(slot: existing, object: component, to: group)
            scopes[Int(scope)].current?.images.endPass()
            return
        }
        let slot = allocateSlot(for: component)
        link(slot: slot, into: group)
        guard let theme = scopes[Int(scope)].current, groups[Int(group)].instance >= 0 else {
            reportUnknownIdentifier(group: group)
            return
        }
        let instance = groups[Int(group)].instance
        let type = ObjectIdentifier(Swift.type(of: component))
        if groups[Int(group)].acceptedClass != type {
            let binding = theme.instances[Int(instance)].bindingIdentity
            if !recentlyAccepted(binding: binding, type: type) {
                guard accepts(theme, instance, component, group: group) else { return }
                rememberAccepted(theme.binding(of: instance), type: type)
            }
            groups[Int(group)].acceptedClass = type
        }
        slots.base[Int(slot)].accepted = true
        let plan = fullApplyPlan(theme, instance, group: group)
        var statistics = ApplyStatistics()
        applyInFull(plan, on: slot, object: component, theme: theme, group: group,
                    context: ValueContext(images: theme.images), statistics: &statistics)
        counters = statistics
        theme.images.endPass()
        emitChanges(group: group, plan: plan, theme: theme, components: 1)
    }

    /// The last (binding, class) pairs found accepted: with an identifier per component every
    /// registration makes a new group, and asking the binding (retaining it and the theme's
    /// array of bindings) was a tenth of registering in `Scripts/bench.sh`, whose screen
    /// interleaves four component types. A binding's answer for a class never changes, and the
    /// pairs hold their bindings, so an identity here is never another binding's.
    @exclusivity(unchecked) var recentAcceptances: [(binding: ResolvedBinding, type: ObjectIdentifier)] = []

    @inline(__always)
    func recentlyAccepted(binding: ObjectIdentifier?, type: ObjectIdentifier) -> Bool {
        guard let binding else { return false }
        for pair in recentAcceptances where ObjectIdentifier(pair.binding) == binding && pair.type == type { return true }
        return false
    }

    func rememberAccepted(_ binding: ResolvedBinding?, type: ObjectIdentifier) {
        guard let binding else { return }
        recentAcceptances.insert((binding, type), at: 0)
        if recentAcceptances.count > 8 { recentAcceptances.removeLast() }
    }
}
