import LiveryModel

/// What one operation did to the components styled with one identifier, as `onChange`
/// observers are told after a switch (the chat example prints these).
public struct StyleChange: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The theme set a new value.
        case set(Value)
        /// The theme stopped setting the property; its original value came back.
        case reverted
    }

    public var identifier: String
    public var operation: String
    public var state: ControlState
    public var kind: Kind
    /// How many live components received the change.
    public var components: Int

    public var description: String {
        let target = state == .normal ? operation : "\(operation)[\(state)]"
        switch kind {
        case .set(let value): return "\(identifier).\(target) = \(StyleChange.describe(value)) (\(components) component(s))"
        case .reverted: return "\(identifier).\(target) reverted to its original (\(components) component(s))"
        }
    }

    static func describe(_ value: Value) -> String {
        switch value {
        case .float(let number): return JSONValue.format(number)
        case .integer(let number): return String(number)
        case .bool(let flag): return String(flag)
        case .string(let text): return "\"\(text)\""
        case .enumeration(let text): return text
        case .color(let color): return color.hexString
        case .point(let point): return "(\(point.x), \(point.y))"
        case .size(let size): return "\(size.width)x\(size.height)"
        case .rect(let rect): return "(\(rect.x), \(rect.y), \(rect.width), \(rect.height))"
        case .insets(let insets): return "(\(insets.top), \(insets.left), \(insets.bottom), \(insets.right))"
        case .font(let font): return "\(font.family) \(font.size.map { JSONValue.format($0) } ?? "default") \(font.weight.rawValue)"
        case .image(let image): return "image \(image.name)\(image.cache ? " (cached)" : "")"
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        }
    }
}

/// Counters of the last apply pass: what tests and the benchmark read.
public struct ApplyStatistics: Hashable, Sendable {
    /// Setter calls that wrote a theme value.
    public var operationsApplied = 0
    /// Setter calls that put an original value back.
    public var operationsReverted = 0
    /// Live components that received at least one change.
    public var componentsUpdated = 0
    /// Identifiers whose effective operations changed.
    public var identifiersChanged = 0
    public init() {}
}

/// Which theme and traits a scope uses instead of its parent's: nil fields inherit.
public struct ScopeOverrides: Hashable, Sendable {
    public var themeID: String?
    public var idiom: Idiom?
    public var appearance: Appearance?
    public var contrast: Contrast?
    public var scale: Int?

    public init(themeID: String? = nil, idiom: Idiom? = nil, appearance: Appearance? = nil,
                contrast: Contrast? = nil, scale: Int? = nil) {
        self.themeID = themeID
        self.idiom = idiom
        self.appearance = appearance
        self.contrast = contrast
        self.scale = scale
    }
}

/// A part of the app (a screen, a subtree) styled with its own theme or traits. Components
/// styled through a scope follow the scope; everything else follows the app.
@MainActor
public final class ThemeScope {
    unowned let applicator: Applicator
    let index: Int32

    init(applicator: Applicator, index: Int32) {
        self.applicator = applicator
        self.index = index
    }

    /// Changing the overrides re-applies, as a diff, to the scope's components and its children.
    public var overrides: ScopeOverrides {
        get { applicator.scopes[Int(index)].overrides }
        set {
            applicator.scopes[Int(index)].overrides = newValue
            applicator.refresh()
        }
    }

    /// The theme the scope's components get now.
    public var theme: ResolvedTheme? { applicator.scopes[Int(index)].current?.theme }

    /// Styles `component` with the scope's theme; see `Applicator.style(_:as:)`.
    public func style(_ component: AnyObject, as identifier: String) {
        applicator.style(component, as: identifier, scope: index)
    }

    /// A scope inside this one: it inherits this scope's overrides, then applies its own.
    public func makeScope(_ overrides: ScopeOverrides) -> ThemeScope {
        applicator.makeScope(overrides, parent: index)
    }
}

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
    public let manager: ThemeManager
    /// Decoded `cache="true"` images shared by all components; emptied on theme switch.
    public let imageCache: ImageCache
    /// Turns image bytes into the app's image type; set it before styling components.
    public var imageDecoder: ImageDecoder? {
        didSet { invalidatePrepared() }
    }
    /// Called after each pass for every operation that changed, per identifier. Costs nothing
    /// when nil.
    @exclusivity(unchecked) public var onChange: (@MainActor (StyleChange) -> Void)?
    /// Counters of the most recent pass (a switch, a registration or a re-target).
    public var lastPass: ApplyStatistics { counters }
    @exclusivity(unchecked) private var counters = ApplyStatistics()
    public var diagnostics: DiagnosticHook { manager.diagnostics }

    /// The app-wide scope: `style(_:as:)` on the applicator uses it.
    public private(set) var rootScope: ThemeScope!

    let bindings: BindingTable
    let operationKeys = OperationKeys()

    // MARK: Registry storage

    struct Slot {
        // Fields ordered largest first (64 bytes, not 72): registering 10,000 components
        // touches every byte of the slots for the first time, and first touches are page faults.
        /// Nil when the slot is free.
        var held: HeldComponent?
        var objectID: ObjectIdentifier?
        var originals = ComponentOriginals()
        var group: Int32 = -1
        var previous: Int32 = -1
        var next: Int32 = -1
        /// Changes whenever the originals are dropped or replaced (see `Originals.swift`).
        var generation: UInt32 = 0
        /// Whether the group's binding takes this object (a mismatch is reported, never applied).
        var accepted = false
    }

    struct Group {
        let scope: Int32
        let identifier: Int32
        var head: Int32 = -1
        var count = 0
        /// The instance of the scope's current prepared theme that every accepted member has
        /// had applied; -1: none. (The theme is not stored per group: it is always the scope's,
        /// and a reference per group would cost a retain and a release per group per switch.)
        var instance: Int32 = -1
        /// The class of components the binding of `instance` was last found to take: a screen
        /// registers many of one class, and asking the binding costs a retain, a release and a
        /// call. Nil whenever `instance` changes.
        var acceptedClass: ObjectIdentifier?
    }

    struct ScopeState {
        var parent: Int32
        var overrides: ScopeOverrides
        var current: PreparedTheme?
        /// Identifier number -> group, -1 when the scope has none: an array, not a dictionary,
        /// because registration looks a group up per component.
        var groupByIdentifier: ContiguousArray<Int32> = []


        var groups: [Int32] = []
        var handle: ThemeScope?
    }

    /// A group's plan queued by the first phase of a switch.
    struct PendingPlan {
        var group: Int32
        var first: Int32
        var count: Int32
    }

    /// Where a plan's steps are.
    struct Plan {
        let table: PlanTable
        let steps: Range<Int>
        /// The layout of the originals a full-apply plan records in a block; -1 for other plans.
        var layout: Int32 = -1
        /// Added to every step's operation: the first operation of the instance a full-apply
        /// plan runs for (instances of one shape share the plan); 0 for other plans.
        var base: Int32 = 0
    }

    let slots: SlotStorage
    @exclusivity(unchecked) private var freeSlots: [Int32] = []
    private let slotByObject = SlotIndex()
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
    @exclusivity(unchecked) private var pendingBuffer: ContiguousArray<PendingPlan> = []
    var prepared: [PreparedTheme.Key: (theme: PreparedTheme, lastUse: Int)] = [:]
    var preparedClock = 0
    /// How many prepared themes are kept (switching back and forth between a few themes
    /// and trait sets then costs only the plans' execution).
    public var preparedThemeLimit = 8
    private var observation: ObservationToken?
    /// True while init registers the standard bindings: one refresh at the end is enough.
    private var isStarting = true

    public init(manager: ThemeManager, imageCache: ImageCache = ImageCache(), registerStandardBindings: Bool = true) {
        self.manager = manager
        self.imageCache = imageCache
        self.bindings = BindingTable(schema: manager.schema, diagnostics: manager.diagnostics)
        self.slots = SlotStorage(bindings: bindings)
        scopes.append(ScopeState(parent: -1, overrides: ScopeOverrides()))
        rootScope = ThemeScope(applicator: self, index: 0)
        scopes[0].handle = rootScope
        if registerStandardBindings { StandardBindings.register(in: self) }
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

    private func invalidatePrepared() {
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
    @exclusivity(unchecked) private var recentAcceptances: [(binding: ResolvedBinding, type: ObjectIdentifier)] = []

    @inline(__always)
    private func recentlyAccepted(binding: ObjectIdentifier?, type: ObjectIdentifier) -> Bool {
        guard let binding else { return false }
        for pair in recentAcceptances where ObjectIdentifier(pair.binding) == binding && pair.type == type { return true }
        return false
    }

    private func rememberAccepted(_ binding: ResolvedBinding?, type: ObjectIdentifier) {
        guard let binding else { return }
        recentAcceptances.insert((binding, type), at: 0)
        if recentAcceptances.count > 8 { recentAcceptances.removeLast() }
    }

    // MARK: Switching

    /// Re-resolves every scope against the manager's theme and traits and applies what
    /// changed. The manager's observers call it; apps rarely need to.
    public func refresh() {
        enterPass()
        defer { leavePass() }
        counters = ApplyStatistics()
        var themeChanged = false
        var targets: [(Int, PreparedTheme)] = []
        for scope in scopes.indices {
            guard let theme = preparedTheme(forScope: scope) else { continue }
            if theme !== scopes[scope].current {
                if theme.key.themeID != scopes[scope].current?.key.themeID
                    || theme.key.themeGeneration != scopes[scope].current?.key.themeGeneration {
                    themeChanged = true
                }
                targets.append((scope, theme))
            }
        }
        // A theme's cached images never outlive it.
        if themeChanged { imageCache.removeAll() }
        var statistics = ApplyStatistics()
        for (scope, theme) in targets {
            let previous = scopes[scope].current
            scopes[scope].current = theme
            let context = ValueContext(images: theme.images)
            // Plans from the scope's previous theme: every group of the scope shows it. Nil
            // exactly when there is no previous theme.
            let plans = previous.map { theme.plans(from: $0) }
            // The queue's buffer is reused from pass to pass; a pass that a setter starts inside
            // this one takes an empty queue of its own.
            var queue = pendingBuffer
            pendingBuffer = []
            queue.removeAll(keepingCapacity: true)
            for group in scopes[scope].groups {
                switchGroup(group, from: previous, to: theme, plans: plans, queue: &queue, context: context,
                            statistics: &statistics)
            }
            if let plans { runPending(queue, plans, theme: theme, context: context, statistics: &statistics) }
            pendingBuffer = queue
            theme.images.endPass()
        }
        counters = statistics
    }

    private func effective(scope: Int) -> (themeID: String?, traits: TraitSet, scale: Int) {
        let state = scopes[scope]
        var result: (themeID: String?, traits: TraitSet, scale: Int)
        if state.parent >= 0 {
            result = effective(scope: Int(state.parent))
        } else {
            result = (manager.currentThemeID, manager.traits, manager.scale)
        }
        let overrides = state.overrides
        if let id = overrides.themeID { result.themeID = id }
        if let idiom = overrides.idiom { result.traits.idiom = idiom }
        if let appearance = overrides.appearance { result.traits.appearance = appearance }
        if let contrast = overrides.contrast { result.traits.contrast = contrast }
        if let scale = overrides.scale { result.scale = max(1, scale) }
        return result
    }

    private func preparedTheme(forScope scope: Int) -> PreparedTheme? {
        let wanted = effective(scope: scope)
        guard let themeID = wanted.themeID else { return nil }
        let key = PreparedTheme.Key(themeID: themeID, traits: wanted.traits, scale: wanted.scale,
                                    themeGeneration: manager.generation, bindingGeneration: bindings.generation,
                                    textScale: manager.textScale)
        preparedClock += 1
        if let cached = prepared[key] {
            prepared[key]?.lastUse = preparedClock
            return cached.theme
        }
        // Unavailable themes were reported by the manager; the scope keeps what it has.
        guard let loaded = manager.theme(themeID) else { return scopes[scope].current }
        let resolved = loaded.variants.resolved(for: wanted.traits).applyingTextScale(key.textScale)
        let images = ImageLoader(theme: resolved, scale: wanted.scale, source: loaded.assets, decoder: imageDecoder,
                                 cache: imageCache, diagnostics: diagnostics)
        let theme = PreparedTheme(key: key, theme: resolved, images: images, bindings: bindings.snapshot(),
                                  operationKeys: operationKeys, identifiers: identifiers)
        keep(theme)
        return theme
    }

    /// Caches a prepared theme, evicting the least recently used beyond `preparedThemeLimit`.
    func keep(_ theme: PreparedTheme) {
        if prepared.count >= max(1, preparedThemeLimit),
           let oldest = prepared.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            prepared[oldest] = nil
        }
        prepared[theme.key] = (theme, preparedClock)
    }

    /// Moves a group from the scope's previous theme to its new one. The common case, same
    /// component type, only finds (or builds) the group's plan and queues it for `runPending`;
    /// a group whose binding changed is reverted and applied in full here. Runs once per group
    /// per switch: nothing here may retain or allocate per group.
    private func switchGroup(_ group: Int32, from oldTheme: PreparedTheme?, to theme: PreparedTheme, plans: PlanTable?,
                             queue: inout ContiguousArray<PendingPlan>, context: ValueContext,
                             statistics: inout ApplyStatistics) {
        let new = instance(of: group, in: theme)
        let old = groups[Int(group)].instance
        groups[Int(group)].instance = new
        groups[Int(group)].acceptedClass = nil
        guard groups[Int(group)].count > 0 else { return }
        if new < 0 { reportUnknownIdentifier(group: group) }
        // A warm switch: the plan was built (the identifier names the same instances in both
        // themes for every group, so the binding check below was made when it was).
        if let plans, old >= 0, new >= 0, let range = plans.plan(new) {
            guard !range.isEmpty else { return }
            statistics.identifiersChanged += 1
            queue.append(PendingPlan(group: group, first: Int32(range.lowerBound), count: Int32(range.count)))
            return
        }
        if let oldTheme, let plans, old >= 0, new >= 0,
           oldTheme.instances[Int(old)].bindingIdentity == theme.instances[Int(new)].bindingIdentity {
            // The common case: same component type, apply the difference.
            let range = buildDiff(from: oldTheme, old, to: theme, new, into: plans, group: group)
            guard !range.isEmpty else { return }
            statistics.identifiersChanged += 1
            queue.append(PendingPlan(group: group, first: Int32(range.lowerBound), count: Int32(range.count)))
        } else {
            // The component type or its binding changed (or the instance appeared or vanished):
            // revert everything, then apply the new instance in full.
            statistics.identifiersChanged += 1
            var updated = 0
            let plan = new >= 0 ? fullApplyPlan(theme, new, group: group) : nil
            forEachLiveMember(of: group) { slot, object in
                statistics.operationsReverted += revertAll(slot: slot, object: object)
                slots.base[Int(slot)].accepted = false
                if let plan {
                    slots.base[Int(slot)].accepted = accepts(theme, new, object, group: group)
                    if slots.base[Int(slot)].accepted {
                        applyInFull(plan, on: slot, object: object, theme: theme, group: group,
                                    context: context, statistics: &statistics)
                    }
                }
                updated += 1
            }
            statistics.componentsUpdated += updated
            if let plan { emitChanges(group: group, plan: plan, theme: theme, components: updated) }
        }
    }

    /// Runs the queued plans of a switch on the groups' members: one weak load per component
    /// and one setter call per changed operation. Plans are all built by now, so the arrays
    /// are copied once per pass (a retain each), and a setter that re-enters the applicator
    /// and appends to them makes them copy on write, leaving these buffers intact.
    private func runPending(_ work: ContiguousArray<PendingPlan>, _ plans: PlanTable, theme: PreparedTheme,
                            context: ValueContext, statistics: inout ApplyStatistics) {
        let steps = plans.steps
        let operations = theme.operations
        withBuffers(steps, operations) { steps, operations in
            for entry in work {
                let group = entry.group
                let range = Int(entry.first)..<Int(entry.first + entry.count)
                var updated = 0
                forEachLiveMember(of: group) { slot, object in
                    guard slots.base[Int(slot)].accepted else { return }
                    runSteps(steps, range, operations, on: slot, object: object, theme: theme, group: group,
                             context: context, statistics: &statistics)
                    updated += 1
                }
                statistics.componentsUpdated += updated
                if onChange != nil {
                    emitChanges(group: group, plan: Plan(table: plans, steps: range), theme: theme, components: updated)
                }
            }
        }
    }

    private func retarget(slot: Int32, object: AnyObject, to group: Int32) {
        let oldGroup = slots.base[Int(slot)].group
        let wasAccepted = slots.base[Int(slot)].accepted
        let oldTheme = scopes[Int(groups[Int(oldGroup)].scope)].current
        let old = groups[Int(oldGroup)].instance
        unlink(slot: slot)
        link(slot: slot, into: group)
        let newTheme = scopes[Int(groups[Int(group)].scope)].current
        let new = groups[Int(group)].instance
        if new < 0 { reportUnknownIdentifier(group: group) }
        var statistics = ApplyStatistics()
        if wasAccepted, let oldTheme, let newTheme, old >= 0, new >= 0,
           oldTheme.instances[Int(old)].bindingIdentity == newTheme.instances[Int(new)].bindingIdentity {
            // A one-off plan: re-targeting is rare and pairs arbitrary instances.
            let table = PlanTable(from: oldTheme, isFullApply: false)
            let plan = Plan(table: table, steps: buildDiff(from: oldTheme, old, to: newTheme, new, into: table, group: group))
            run(plan, on: slot, object: object, theme: newTheme, group: group,
                context: ValueContext(images: newTheme.images), statistics: &statistics)
        } else {
            statistics.operationsReverted += revertAll(slot: slot, object: object)
            slots.base[Int(slot)].accepted = false
            if let newTheme, new >= 0 {
                slots.base[Int(slot)].accepted = accepts(newTheme, new, object, group: group)
                if slots.base[Int(slot)].accepted {
                    applyInFull(fullApplyPlan(newTheme, new, group: group), on: slot, object: object,
                                theme: newTheme, group: group, context: ValueContext(images: newTheme.images),
                                statistics: &statistics)
                }
            }
        }
        counters = statistics
    }

    // MARK: Plans

    /// Every usable operation of `instance`, recording originals first. It runs only on
    /// components with no original recorded (new, or just reverted in full), so a key's first
    /// step records without looking for an earlier original; a repeated key only sets.
    /// The plan is the instance's shape's (see `PreparedInstance.shape`), its steps' operations
    /// counted from the instance's first.
    private func fullApplyPlan(_ theme: PreparedTheme, _ instance: Int32, group: Int32) -> Plan {
        let table = theme.fullApplyPlans
        let record = theme.instances[Int(instance)]
        if let steps = table.plan(record.shape) {
            return Plan(table: table, steps: steps, layout: table.layout(of: record.shape), base: record.first)
        }
        let first = table.steps.count
        var recorded: [(key: Int32, setter: Unmanaged<OperationSetter>)] = []
        recorded.reserveCapacity(Int(record.count))
        for operation in record.first..<record.first + record.count
        where usable(operation, in: theme, instance: instance, group: group) {
            let key = theme.operations[Int(operation)].key
            var repeated = false
            for index in first..<table.steps.count where table.steps[index].key == key { repeated = true }
            let offset = operation - record.first
            if repeated {
                table.steps.append(PlanStep(kind: .set, operation: offset, key: key))
            } else if let setter = theme.operations[Int(operation)].setter,
                      recorded.count < OriginalLayouts.maxEntries, OriginalLayouts.fits(setter) {
                table.steps.append(PlanStep(kind: .setRecording, operation: offset, key: key,
                                            entry: UInt8(recorded.count)))
                recorded.append((key, setter))
            } else {
                // Outside the block: recorded on the component's overflow list.
                table.steps.append(PlanStep(kind: .setCapturing, operation: offset, key: key))
            }
        }
        let layout = recorded.isEmpty ? -1 : slots.layouts.number(of: recorded)
        if layout >= 0 {
            let entries = slots.layouts.layouts[Int(layout)].entries
            for index in first..<table.steps.count where table.steps[index].kind == .setRecording {
                table.steps[index].offset = entries[Int(table.steps[index].entry)].offset
            }
        }
        return Plan(table: table, steps: table.finish(record.shape, first: first, layout: layout), layout: layout,
                    base: record.first)
    }

    /// Appends to `table` the steps that turn instance `old` of `oldTheme` into `new` of
    /// `theme`: operations whose values changed, new ones (recording originals first) and
    /// reverts of those `new` no longer has.
    // Not inlined into `switchGroup`: there it made every warm switch retain and release per
    // group (the buffers' arrays), for work only a group's first switch does.
    @inline(never)
    private func buildDiff(from oldTheme: PreparedTheme, _ old: Int32, to theme: PreparedTheme, _ new: Int32,
                           into table: PlanTable, group: Int32) -> Range<Int> {
        let oldRecord = oldTheme.instances[Int(old)]
        let newRecord = theme.instances[Int(new)]
        let oldRange = Int(oldRecord.first)..<Int(oldRecord.first + oldRecord.count)
        let newRange = Int(newRecord.first)..<Int(newRecord.first + newRecord.count)
        // Through the buffers: indexing the themes' arrays retained and released them per
        // access, 64 times per pair of instances of 8 operations. (A diagnostic hook that
        // re-enters the applicator and prepares more makes the arrays copy, not these buffers
        // move.)
        return withScratch(of: PlanStep.self, count: PlanDiff.maximumSteps(old: oldRange.count, new: newRange.count)) {
            scratch in
            let written = withBuffers(oldTheme.operations, theme.operations) { oldOperations, operations in
                PlanDiff.steps(from: oldOperations, oldRange, to: operations, newRange, into: scratch,
                               sameEffect: { theme.sameEffect(Int32($0), as: Int32($1), in: oldTheme) },
                               usable: { usable(Int32($0), in: theme, instance: new, group: group) })
            }
            let first = table.steps.count
            table.steps.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
            return table.finish(new, first: first)
        }
    }

    /// Whether the operation can be applied; reports once why not.
    private func usable(_ operation: Int32, in theme: PreparedTheme, instance: Int32, group: Int32) -> Bool {
        // The common answer without retaining the binding: a setter that takes the operation's
        // state is exactly what `revertible` records.
        if theme.operations[Int(operation)].setter != nil, theme.operations[Int(operation)].revertible { return true }
        guard let binding = theme.binding(of: instance) else { return false }
        let record = theme.operations[Int(operation)]
        guard let setter = record.setter?.takeUnretainedValue() else {
            let resolved = theme.resolvedInstance(instance)
            let name = theme.resolvedOperation(operation).name
            report(.error(.runtimeUnknownOperation,
                          "the '\(resolved.component)' binding (\(binding.typeName)) has no setter for operation '\(name)' used by instance '\(resolved.id)'; it is skipped",
                          at: nil),
                   key: "operation|\(resolved.component)|\(name)", group: group)
            return false
        }
        let state = theme.state(of: operation)
        if !setter.takesState && state != .normal {
            let resolved = theme.resolvedInstance(instance)
            report(.error(.runtimeUnexpectedState,
                          "operation '\(setter.operation)' of '\(resolved.component)' has no states, but instance '\(resolved.id)' sets it for state '\(state)'; it is skipped",
                          at: nil),
                   key: "state|\(resolved.component)|\(setter.operation)|\(state)", group: group)
            return false
        }
        return true
    }

    // MARK: Applying

    /// Applies a full-apply plan to a component with no originals (new, or just reverted in
    /// full), in the block its plan lays out.
    private func applyInFull(_ plan: Plan, on slot: Int32, object: AnyObject, theme: PreparedTheme, group: Int32,
                             context: ValueContext, statistics: inout ApplyStatistics) {
        // Only app code re-entering the applicator during a revert can leave originals here; what
        // it applied then stands.
        guard prepareBlock(slot: slot, layout: plan.layout) else { return }
        run(plan, on: slot, object: object, theme: theme, group: group, context: context, statistics: &statistics)
    }

    /// Runs a plan on one component (registration, re-targeting, full re-apply).
    private func run(_ plan: Plan, on slot: Int32, object: AnyObject, theme: PreparedTheme, group: Int32,
                     context: ValueContext, statistics: inout ApplyStatistics) {
        let steps = plan.table.steps
        let operations = theme.operations
        withBuffers(steps, operations) { steps, operations in
            // A full-apply plan counts its operations from its instance's first: it reads them
            // through the buffer rebased there.
            let base = Int(plan.base)
            runSteps(steps, plan.steps, UnsafeBufferPointer(rebasing: operations[base...]), on: slot, object: object,
                     theme: theme, group: group, context: context, statistics: &statistics)
        }
    }

    /// The hot path of a switch: a plan's steps on one component. The setter is called through
    /// an unretained reference (the prepared theme's bindings keep it alive) with a value
    /// decoded when the theme was prepared; nothing is allocated once the originals are
    /// recorded, and nothing is reference counted but the component's own weak load.
    ///
    /// `operations` starts where the steps count from (see `Plan.base`); the paths off the hot
    /// one find what they need from the operation's record, not its index (one more value live
    /// through the loop cost 3 instructions a step, 4% of a warm switch).
    @inline(__always)
    private func runSteps(_ steps: UnsafeBufferPointer<PlanStep>, _ range: Range<Int>,
                          _ operations: UnsafeBufferPointer<PreparedOperation>, on slot: Int32, object: AnyObject,
                          theme: PreparedTheme, group: Int32, context: ValueContext,
                          statistics: inout ApplyStatistics) {
        var applied = 0
        let generation = slots.base[Int(slot)].generation
        for index in range {
            // App code that ran in the last step re-targeted or unstyled this component: the
            // rest of the plan is not its plan any more (see `Originals.swift`).
            if slots.base[Int(slot)].generation != generation { break }
            let step = steps[index]
            if step.kind == .revert {
                if revert(slot: slot, key: step.key, object: object) { statistics.operationsReverted += 1 }
                continue
            }
            let operation = operations[Int(step.operation)]
            guard let setter = operation.setter else { continue }
            if step.kind == .setRecording, let value = operation.value, let block = slots.base[Int(slot)].originals.block {
                // A first application: one call writes the original into the component's block
                // and sets the value.
                assert(!hasOriginal(slot: slot, key: step.key), "a recording step met a recorded original")
                setter.withGuaranteedSetter { $0.captureAndApplyStored(object, value, block + Int(step.offset)) }
                if slots.base[Int(slot)].generation == generation { markRecorded(slot: slot, entry: step.entry) }
                applied += 1
                continue
            }
            if step.kind != .set {
                recordOriginal(slot: slot, key: operation.key, setter: setter, state: theme.state(of: operation),
                               object: object)
            }
            if let value = operation.value {
                setter.withGuaranteedSetter { $0.applyStored(object, value) }
                applied += 1
                continue
            }
            if applyUndecoded(operation, setter: setter, to: object, theme: theme, group: group, context: context) {
                applied += 1
            }
        }
        statistics.operationsApplied += applied
    }

    /// The general path of `runSteps`, for an operation whose value was not decoded when the
    /// theme was prepared (images): decodes and applies it, or reports why not. Kept out of
    /// the hot loop.
    @inline(never)
    private func applyUndecoded(_ operation: PreparedOperation, setter: Unmanaged<OperationSetter>, to object: AnyObject,
                                theme: PreparedTheme, group: Int32, context: ValueContext) -> Bool {
        let resolved = theme.resolvedOperation(operation)
        switch setter.takeUnretainedValue().apply(object, resolved, context) {
        case .applied:
            return true
        case .wrongTarget:
            return false
        case .valueMismatch(let reason):
            let id = theme.theme.instances[Int(operation.instance)].id
            report(.error(.runtimeValueMismatch,
                          "operation '\(resolved.name)' of instance '\(id)': \(reason); it is skipped", at: nil),
                   key: "value|\(id)|\(resolved.name)|\(resolved.state)", group: group)
            return false
        }
    }

    private func accepts(_ theme: PreparedTheme, _ instance: Int32, _ object: AnyObject, group: Int32) -> Bool {
        guard let binding = theme.binding(of: instance) else {
            let resolved = theme.resolvedInstance(instance)
            report(.error(.runtimeUnboundComponent,
                          "no binding is registered for component type '\(resolved.component)' (instance '\(resolved.id)'); register a ComponentBinding for it",
                          at: nil),
                   key: "unbound|\(resolved.component)", group: group)
            return false
        }
        guard binding.takes(object) else {
            let resolved = theme.resolvedInstance(instance)
            let type = String(describing: Swift.type(of: object))
            report(.error(.runtimeComponentMismatch,
                          "instance '\(resolved.id)' is a '\(resolved.component)' (bound to \(binding.typeName)), but the component styled as it is a \(type); nothing is applied to it",
                          at: nil),
                   key: "mismatch|\(resolved.id)|\(type)", group: group)
            return false
        }
        return true
    }

    private func reportUnknownIdentifier(group: Int32) {
        let name = identifiers.names[Int(groups[Int(group)].identifier)]
        guard let theme = scopes[Int(groups[Int(group)].scope)].current?.theme else { return }
        report(.warning(.runtimeUnknownIdentifier,
                        "theme \(theme.info.id) (\(theme.traits)) has no instance '\(name)'; components styled as it keep their own look",
                        at: nil),
               key: "identifier|\(name)", group: group)
    }

    /// Findings are keyed per theme and trait set: a new theme may have new problems.
    private func report(_ diagnostic: Diagnostic, key: String, group: Int32) {
        let theme = scopes[Int(groups[Int(group)].scope)].current?.key
        diagnostics.report(diagnostic, key: "\(key)|\(theme?.themeID ?? "-")|\(theme?.traits.description ?? "")|\(manager.generation)")
    }

    private func emitChanges(group: Int32, plan: Plan, theme: PreparedTheme, components: Int) {
        guard let onChange, !plan.steps.isEmpty else { return }
        let identifier = identifiers.names[Int(groups[Int(group)].identifier)]
        for index in plan.steps {
            let step = plan.table.steps[index]
            if step.kind == .revert {
                let (name, state) = operationKeys.names[Int(step.key)]
                onChange(StyleChange(identifier: identifier, operation: name, state: state, kind: .reverted,
                                     components: components))
            } else {
                let operation = theme.resolvedOperation(plan.base + step.operation)
                onChange(StyleChange(identifier: identifier, operation: operation.name,
                                     state: ControlState(rawValue: operation.state),
                                     kind: .set(operation.params.count == 1 ? operation.params[0].value
                                         : .array(operation.params.map(\.value))),
                                     components: components))
            }
        }
    }

    // MARK: Registry internals

    func intern(_ identifier: String) -> Int32 {
        identifiers.number(identifier)
    }

    /// The prepared instance of `theme` that `group`'s identifier names, -1 when none.
    @inline(__always)
    private func instance(of group: Int32, in theme: PreparedTheme) -> Int32 {
        let identifier = groups[Int(group)].identifier
        let known = theme.knownInstance(identifier: identifier)
        return known != -2 ? known : theme.instance(identifier: identifier)
    }

    /// Reads the scope's table in place (a method on the `ScopeState` copy would retain each
    /// of its fields).
    @inline(__always)
    private func existingGroup(scope: Int32, identifier: Int32) -> Int32? {
        let index = Int(identifier)
        guard index < scopes[Int(scope)].groupByIdentifier.count else { return nil }
        let group = scopes[Int(scope)].groupByIdentifier[index]
        return group >= 0 ? group : nil
    }

    private func group(scope: Int32, identifier: Int32) -> Int32 {
        if let group = existingGroup(scope: scope, identifier: identifier) { return group }
        // Found before the group is numbered: preparing the instance may run app code that
        // styles other components, and so makes other groups (perhaps this one).
        let instance = scopes[Int(scope)].current?.instance(identifier: identifier) ?? -1
        if let group = existingGroup(scope: scope, identifier: identifier) { return group }
        let group = Int32(groups.count)
        // Room for a group per identifier known (the themes' ids are numbered when a theme is
        // first looked up), reserved at once: untouched capacity costs address space, not
        // memory, and growing by doubling copied the groups into fresh pages again and again
        // (page faults were a third of registering 10,000 components under 10,000 identifiers).
        if groups.count == groups.capacity { groups.reserveCapacity(max(groups.count * 2, identifiers.count)) }
        groups.append(Group(scope: scope, identifier: identifier, instance: instance))
        let missing = Int(identifier) + 1 - scopes[Int(scope)].groupByIdentifier.count
        if missing > 0 {
            if scopes[Int(scope)].groupByIdentifier.capacity < Int(identifier) + 1 {
                scopes[Int(scope)].groupByIdentifier.reserveCapacity(max(Int(identifier) + 1, identifiers.count))
            }
            scopes[Int(scope)].groupByIdentifier.append(contentsOf: repeatElement(-1, count: missing))
        }
        scopes[Int(scope)].groupByIdentifier[Int(identifier)] = group
        scopes[Int(scope)].groups.append(group)
        return group
    }

    /// The slot of `component` if it is registered and alive. A slot whose object died and
    /// whose address was reused by `component` is reclaimed here.
    private func liveSlot(of component: AnyObject) -> Int32? {
        guard let slot = slotByObject[ObjectIdentifier(component)] else { return nil }
        if slots.base[Int(slot)].held?.load() === component { return slot }
        releaseSlot(slot)
        return nil
    }

    private func allocateSlot(for component: AnyObject) -> Int32 {
        if freeSlots.isEmpty && slots.count == slots.capacity { sweepBeforeGrowing() }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.append(Slot())
        }
        slots.base[Int(slot)].held = HeldComponent(component)
        slots.base[Int(slot)].objectID = ObjectIdentifier(component)
        slotByObject.set(slot, for: ObjectIdentifier(component))
        return slot
    }

    /// Calls `body` with each live member of `group` and reclaims the slots of released ones.
    /// The next member is read before `body` runs, so `body` may move its own slot elsewhere.
    @inline(__always)
    private func forEachLiveMember(of group: Int32, _ body: (_ slot: Int32, _ object: AnyObject) -> Void) {
        var slot = groups[Int(group)].head
        while slot >= 0 {
            let next = slots.base[Int(slot)].next
            if let object = slots.base[Int(slot)].held?.load() { body(slot, object) } else { releaseSlot(slot) }
            slot = next
        }
    }

    private func link(slot: Int32, into group: Int32) {
        // At the head, so a component styled by a setter during a pass is not visited twice.
        let head = groups[Int(group)].head
        slots.base[Int(slot)].group = group
        slots.base[Int(slot)].previous = -1
        slots.base[Int(slot)].next = head
        if head >= 0 { slots.base[Int(head)].previous = slot }
        groups[Int(group)].head = slot
        groups[Int(group)].count += 1
    }

    private func unlink(slot: Int32) {
        let group = slots.base[Int(slot)].group
        guard group >= 0 else { return }
        let previous = slots.base[Int(slot)].previous
        let next = slots.base[Int(slot)].next
        if previous >= 0 { slots.base[Int(previous)].next = next } else { groups[Int(group)].head = next }
        if next >= 0 { slots.base[Int(next)].previous = previous }
        groups[Int(group)].count -= 1
        slots.base[Int(slot)].group = -1
        slots.base[Int(slot)].previous = -1
        slots.base[Int(slot)].next = -1
    }

    /// Frees a slot; its originals are dropped (the component is gone or was just reverted).
    private func releaseSlot(_ slot: Int32) {
        guard let objectID = slots.base[Int(slot)].objectID else { return }
        unlink(slot: slot)
        if slotByObject[objectID] == slot { slotByObject.remove(objectID) }
        slots.base[Int(slot)].held?.release()
        slots.base[Int(slot)].held = nil
        slots.base[Int(slot)].objectID = nil
        slots.base[Int(slot)].accepted = false
        discardOriginals(slot: slot)
        freeSlots.append(slot)
    }

    private func releaseDeadSlots() {
        for index in 0..<slots.count where slots.base[index].held?.isReleased == true {
            releaseSlot(Int32(index))
        }
    }

    /// Reclaims released components' slots when the table is full, before it grows; grows it
    /// at once unless a quarter came free. Either way the next sweep is at least a quarter of
    /// the table's capacity of registrations away, so the work is O(1) per registration,
    /// amortised, and the table stays within a few times the peak of live components. (It
    /// replaced a sweep of two slots per registration, whose two weak loads were 5% of one.)
    private func sweepBeforeGrowing() {
        releaseDeadSlots()
        // Growing, to room for a component per identifier known at least, for the reason given
        // in `group(scope:identifier:)`. (Not the address table: its buckets are all written
        // when it is made, so room there costs memory whether components come or not.)
        if freeSlots.count < slots.capacity / 4 { slots.grow(toHold: identifiers.count) }
    }
}

/// The registry's slots in one manually managed buffer, with the memory their originals are in
/// (see `Originals.swift`): an apply pass reads a slot's component and links in place, without
/// copying the slot (an `Array` of structs would copy, and pay exclusivity checks, on every
/// access).
final class SlotStorage: @unchecked Sendable {
    // Used on the main actor only; `Sendable` so that its nonisolated deinit may give back what
    // the slots hold.
    // Read on every step of a pass; only `append` and `grow` write it, never during another access.
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<Applicator.Slot>
    private(set) var count = 0
    private(set) var capacity = 64
    /// The layouts of the slots' blocks of originals, and the memory originals are in.
    let layouts = OriginalLayouts()
    @exclusivity(unchecked) var memory = OriginalMemory()
    /// Originals outside the blocks, in lists per slot, and the free entries.
    @exclusivity(unchecked) var overflow: ContiguousArray<OverflowOriginal> = []
    @exclusivity(unchecked) var freeOverflow: [Int32] = []
    /// Keeps every setter that originals point to alive as long as the originals.
    private let bindings: BindingTable

    init(bindings: BindingTable) {
        self.bindings = bindings
        base = .allocate(capacity: capacity)
    }

    deinit {
        for index in 0..<count {
            base[index].held?.release()
            discardOriginals(base[index].originals)
        }
        base.deinitialize(count: count)
        base.deallocate()
        memory.releaseAll()
    }

    /// Deinitialises and frees what one slot's originals hold, without writing anything back.
    private func discardOriginals(_ originals: ComponentOriginals) {
        var cursor = originals.overflow
        while cursor >= 0 {
            let record = overflow[Int(cursor)]
            record.setter._withUnsafeGuaranteedRef { setter in
                setter.discard(record.memory)
                memory.free(record.memory, size: setter.originalSize, alignment: setter.originalAlignment)
            }
            cursor = record.next
        }
        guard let block = originals.block else { return }
        let layout = layouts.layouts[Int(originals.layout)]
        for (index, entry) in layout.entries.enumerated() where originals.present & (1 << UInt64(index)) != 0 {
            entry.setter._withUnsafeGuaranteedRef { $0.discard(block + Int(entry.offset)) }
        }
        memory.free(block, size: layout.size, alignment: OriginalLayouts.blockAlignment)
    }

    /// Appends a slot and returns its index; amortised O(1).
    func append(_ slot: Applicator.Slot) -> Int32 {
        if count == capacity { grow(toHold: 0) }
        (base + count).initialize(to: slot)
        count += 1
        return Int32(count - 1)
    }

    /// Doubles the capacity, or more to hold `minimum` slots, moving the slots.
    func grow(toHold minimum: Int) {
        let newCapacity = max(capacity * 2, minimum)
        let grown = UnsafeMutablePointer<Applicator.Slot>.allocate(capacity: newCapacity)
        if _isPOD(Applicator.Slot.self) {
            // Without Objective-C a slot is plain bytes; `moveInitialize` moved them one by one
            // (235 instructions per registration, growing to 10,000 slots).
            UnsafeMutableRawPointer(grown).copyMemory(from: base, byteCount: count * MemoryLayout<Applicator.Slot>.stride)
        } else {
            grown.moveInitialize(from: base, count: count)
        }
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}

extension Unmanaged where Instance == OperationSetter {
    /// Calls `body` with the setter without retaining it (prepared themes keep their setters
    /// alive). A wrapper compiled in Swift 6 mode on purpose: a closure literal handed straight
    /// to the standard library's `_withUnsafeGuaranteedRef` gets a dynamic main-actor check on
    /// every call, which cost more than the setter itself.
    @inline(__always)
    func withGuaranteedSetter<Result>(_ body: (OperationSetter) -> Result) -> Result {
        _withUnsafeGuaranteedRef(body)
    }
}

/// Lends the buffers of two arrays. Written here, compiled in Swift 6 mode, for the same reason
/// as `withGuaranteedSetter`: closure literals handed to the standard library's
/// `withUnsafeBufferPointer` from main-actor code get a dynamic isolation check per call.
@inline(__always)
func withBuffers<A, B, Result>(_ first: ContiguousArray<A>, _ second: ContiguousArray<B>,
                               _ body: (UnsafeBufferPointer<A>, UnsafeBufferPointer<B>) -> Result) -> Result {
    first.withUnsafeBufferPointer { first in second.withUnsafeBufferPointer { second in body(first, second) } }
}
