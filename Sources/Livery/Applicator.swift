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
/// components; a released component's slot is reclaimed by an incremental sweep (a couple of
/// slots per registration) and whenever an apply pass meets it, so no per-component observer
/// is needed.
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
    public var onChange: (@MainActor (StyleChange) -> Void)?
    /// Counters of the most recent pass (a switch, a registration or a re-target).
    public var lastPass: ApplyStatistics { counters }
    private var counters = ApplyStatistics()
    public var diagnostics: DiagnosticHook { manager.diagnostics }

    /// The app-wide scope: `style(_:as:)` on the applicator uses it.
    public private(set) var rootScope: ThemeScope!

    let bindings: BindingTable

    // MARK: Registry storage

    struct Original {
        let setter: OperationSetter
        let state: ControlState
        let value: Any
    }

    struct Slot {
        weak var object: AnyObject?
        /// Nil when the slot is free.
        var objectID: ObjectIdentifier?
        var group: Int32 = -1
        var previous: Int32 = -1
        var next: Int32 = -1
        /// Whether the group's binding takes this object (a mismatch is reported, never applied).
        var accepted = false
        /// Original property values, recorded before the theme first wrote them.
        var originals: [Original] = []
    }

    struct Group {
        let scope: Int32
        let identifier: Int32
        var head: Int32 = -1
        var count = 0
        /// The instance every accepted member has had applied (nil: none).
        var applied: PreparedInstance?
    }

    struct ScopeState {
        var parent: Int32
        var overrides: ScopeOverrides
        var current: PreparedTheme?
        var groupByIdentifier: [Int32: Int32] = [:]
        var groups: [Int32] = []
        var handle: ThemeScope?
    }

    enum PendingChange {
        case set(Int, capture: Bool)
        case revert(OperationSetter, ControlState)
    }

    let slots = SlotStorage()
    private var freeSlots: [Int32] = []
    private var slotByObject: [ObjectIdentifier: Int32] = [:]
    var groups: [Group] = []
    var scopes: [ScopeState] = []
    private var identifierNumbers: [String: Int32] = [:]
    private var identifiers: [String] = []
    struct OperationKey: Hashable {
        var name: String
        var state: String
    }
    private var operationNumbers: [OperationKey: Int32] = [:]
    private var sweepCursor = 0
    private var prepared: [PreparedTheme.Key: (theme: PreparedTheme, lastUse: Int)] = [:]
    private var preparedClock = 0
    /// How many prepared themes are kept (switching back and forth between a few themes
    /// and trait sets then costs only the diff).
    public var preparedThemeLimit = 8
    private var pending: [PendingChange] = []
    private var observation: ObservationToken?
    /// True while init registers the standard bindings: one refresh at the end is enough.
    private var isStarting = true

    public init(manager: ThemeManager, imageCache: ImageCache = ImageCache(), registerStandardBindings: Bool = true) {
        self.manager = manager
        self.imageCache = imageCache
        self.bindings = BindingTable(schema: manager.schema, diagnostics: manager.diagnostics)
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
        guard let slot = liveSlot(of: component) else { return }
        counters = ApplyStatistics()
        revertAll(slot: slot, object: component)
        releaseSlot(slot)
    }

    /// The identifier `component` is styled as, if it is.
    public func identifier(of component: AnyObject) -> String? {
        liveSlot(of: component).map { identifiers[Int(groups[Int(slots.base[Int($0)].group)].identifier)] }
    }

    /// Slots in use, released components not yet swept included; O(1).
    public var registeredCount: Int { slotByObject.count }

    /// Counts live components, reclaiming the slots of released ones; O(n), for tests and tools.
    public func liveComponentCount() -> Int {
        for index in 0..<slots.count where slots.base[index].objectID != nil && slots.base[index].object == nil {
            releaseSlot(Int32(index))
        }
        return slotByObject.count
    }

    /// The live components styled as `identifier` in any scope.
    public func components(styledAs identifier: String) -> [AnyObject] {
        guard let number = identifierNumbers[identifier] else { return [] }
        var result: [AnyObject] = []
        for scope in scopes.indices {
            guard let group = scopes[scope].groupByIdentifier[number] else { continue }
            var slot = groups[Int(group)].head
            while slot >= 0 {
                let next = slots.base[Int(slot)].next
                if let object = slots.base[Int(slot)].object { result.append(object) } else { releaseSlot(slot) }
                slot = next
            }
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
        sweep(steps: 2)
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
        guard let instance = groups[Int(group)].applied else {
            reportUnknownIdentifier(group: group)
            return
        }
        slots.base[Int(slot)].accepted = accepts(instance, component, group: group)
        guard slots.base[Int(slot)].accepted else { return }
        buildFullApply(instance, group: group)
        applyPending(to: slot, object: component, instance: instance, group: group)
        scopes[Int(scope)].current?.images.endPass()
        emitChanges(group: group, instance: instance, components: 1)
    }

    // MARK: Switching

    /// Re-resolves every scope against the manager's theme and traits and applies what
    /// changed. The manager's observers call it; apps rarely need to.
    public func refresh() {
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
        for (scope, theme) in targets {
            scopes[scope].current = theme
            let context = ValueContext(images: theme.images)
            for group in scopes[scope].groups {
                switchGroup(group, to: theme, context: context)
            }
            theme.images.endPass()
        }
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
                                    themeGeneration: manager.generation, bindingGeneration: bindings.generation)
        preparedClock += 1
        if let cached = prepared[key] {
            prepared[key]?.lastUse = preparedClock
            return cached.theme
        }
        // Unavailable themes were reported by the manager; the scope keeps what it has.
        guard let loaded = manager.theme(themeID) else { return scopes[scope].current }
        let resolved = loaded.variants.resolved(for: wanted.traits)
        let images = ImageLoader(theme: resolved, scale: wanted.scale, source: loaded.assets, decoder: imageDecoder,
                                 cache: imageCache, diagnostics: diagnostics)
        let theme = PreparedTheme(key: key, theme: resolved, images: images, bindings: bindings, intern: intern,
                                  internOperation: internOperation)
        if prepared.count >= max(1, preparedThemeLimit),
           let oldest = prepared.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            prepared[oldest] = nil
        }
        prepared[key] = (theme, preparedClock)
        return theme
    }

    private func switchGroup(_ group: Int32, to theme: PreparedTheme, context: ValueContext) {
        guard groups[Int(group)].count > 0 else {
            groups[Int(group)].applied = theme.instance(identifier: groups[Int(group)].identifier)
            return
        }
        let old = groups[Int(group)].applied
        let new = theme.instance(identifier: groups[Int(group)].identifier)
        groups[Int(group)].applied = new
        if new == nil { reportUnknownIdentifier(group: group) }
        if let old, let new, old.binding === new.binding {
            buildDiff(from: old, to: new, group: group)
            guard !pending.isEmpty else { return }
            counters.identifiersChanged += 1
            var updated = 0
            var slot = groups[Int(group)].head
            while slot >= 0 {
                let next = slots.base[Int(slot)].next
                if let object = slots.base[Int(slot)].object {
                    if slots.base[Int(slot)].accepted {
                        applyPending(to: slot, object: object, instance: new, group: group, context: context)
                        updated += 1
                    }
                } else {
                    releaseSlot(slot)
                }
                slot = next
            }
            counters.componentsUpdated += updated
            emitChanges(group: group, instance: new, components: updated)
        } else {
            // The component type or its binding changed (or the instance appeared or vanished):
            // revert everything, then apply the new instance in full.
            counters.identifiersChanged += 1
            var updated = 0
            var slot = groups[Int(group)].head
            if let new { buildFullApply(new, group: group) } else { pending.removeAll(keepingCapacity: true) }
            let fullApply = pending
            while slot >= 0 {
                let next = slots.base[Int(slot)].next
                if let object = slots.base[Int(slot)].object {
                    revertAll(slot: slot, object: object)
                    if let new {
                        slots.base[Int(slot)].accepted = accepts(new, object, group: group)
                        if slots.base[Int(slot)].accepted {
                            pending = fullApply
                            applyPending(to: slot, object: object, instance: new, group: group, context: context)
                        }
                    }
                    updated += 1
                } else {
                    releaseSlot(slot)
                }
                slot = next
            }
            counters.componentsUpdated += updated
            if let new, onChange != nil {
                pending = fullApply
                emitChanges(group: group, instance: new, components: updated)
            }
        }
    }

    private func retarget(slot: Int32, object: AnyObject, to group: Int32) {
        let oldGroup = slots.base[Int(slot)].group
        let old = slots.base[Int(slot)].accepted ? groups[Int(oldGroup)].applied : nil
        unlink(slot: slot)
        link(slot: slot, into: group)
        let new = groups[Int(group)].applied
        if new == nil { reportUnknownIdentifier(group: group) }
        if let old, let new, old.binding === new.binding {
            buildDiff(from: old, to: new, group: group)
            applyPending(to: slot, object: object, instance: new, group: group)
        } else {
            revertAll(slot: slot, object: object)
            slots.base[Int(slot)].accepted = false
            if let new {
                slots.base[Int(slot)].accepted = accepts(new, object, group: group)
                if slots.base[Int(slot)].accepted {
                    buildFullApply(new, group: group)
                    applyPending(to: slot, object: object, instance: new, group: group)
                }
            }
        }
    }

    // MARK: Applying

    /// Fills `pending` with every operation of `instance` (a component that has none applied).
    private func buildFullApply(_ instance: PreparedInstance, group: Int32) {
        pending.removeAll(keepingCapacity: true)
        for (index, operation) in instance.operations.enumerated() where usable(operation, instance, group: group) {
            pending.append(.set(index, capture: true))
        }
    }

    /// Fills `pending` with what turns `old` into `new`: operations whose values changed, new
    /// ones (recording originals first) and reverts of those `new` no longer has.
    private func buildDiff(from old: PreparedInstance, to new: PreparedInstance, group: Int32) {
        if new.diffSource === old {
            pending = new.diff
            return
        }
        pending.removeAll(keepingCapacity: true)
        // Plain loops over interned keys and hashes: instances have a handful of operations,
        // and closures or element copies here would cost more than the comparison itself.
        old.keys.withUnsafeBufferPointer { oldKeys in
            new.keys.withUnsafeBufferPointer { newKeys in
                for index in 0..<newKeys.count {
                    var previous = -1
                    for candidate in 0..<oldKeys.count where oldKeys[candidate] == newKeys[index] {
                        previous = candidate
                        break
                    }
                    if previous >= 0, old.hashes[previous] == new.hashes[index],
                       new.operations[index].sameEffect(as: old.operations[previous]) { continue }
                    guard usable(new.operations[index], new, group: group) else { continue }
                    pending.append(.set(index, capture: previous < 0 || !usableQuietly(old.operations[previous])))
                }
                for index in 0..<oldKeys.count {
                    var kept = false
                    for candidate in 0..<newKeys.count where newKeys[candidate] == oldKeys[index] {
                        kept = true
                        break
                    }
                    if !kept, usableQuietly(old.operations[index]) {
                        pending.append(.revert(old.operations[index].setter!, old.operations[index].state))
                    }
                }
            }
        }
        new.diffSource = old
        new.diff = pending
    }

    private func usableQuietly(_ operation: PreparedOperation) -> Bool {
        guard let setter = operation.setter else { return false }
        return setter.takesState || operation.state == .normal
    }

    /// Whether the operation can be applied; reports once why not.
    private func usable(_ operation: PreparedOperation, _ instance: PreparedInstance, group: Int32) -> Bool {
        guard let binding = instance.binding else { return false }
        guard let setter = operation.setter else {
            report(.error(.runtimeUnknownOperation,
                          "the '\(instance.component)' binding (\(binding.typeName)) has no setter for operation '\(operation.operation.name)' used by instance '\(instance.id)'; it is skipped",
                          at: nil),
                   key: "operation|\(instance.component)|\(operation.operation.name)", group: group)
            return false
        }
        if !setter.takesState && operation.state != .normal {
            report(.error(.runtimeUnexpectedState,
                          "operation '\(operation.operation.name)' of '\(instance.component)' has no states, but instance '\(instance.id)' sets it for state '\(operation.state)'; it is skipped",
                          at: nil),
                   key: "state|\(instance.component)|\(operation.operation.name)|\(operation.state)", group: group)
            return false
        }
        return true
    }

    /// Runs `pending` on one component. Hot path: no lookups by name, no allocation once the
    /// originals are recorded.
    private func applyPending(to slot: Int32, object: AnyObject, instance: PreparedInstance, group: Int32,
                              context: ValueContext? = nil) {
        let context = context ?? valueContext(group: group)
        for change in pending {
            switch change {
            case .set(let index, let capture):
                let operation = instance.operations[index]
                let setter = operation.setter!
                if capture, !hasOriginal(slot: slot, setter: setter, state: operation.state),
                   let original = setter.capture(object, operation.state) {
                    if slots.base[Int(slot)].originals.capacity == 0 {
                        slots.base[Int(slot)].originals.reserveCapacity(pending.count)
                    }
                    slots.base[Int(slot)].originals.append(Original(setter: setter, state: operation.state, value: original))
                }
                if let call = operation.preparedCall {
                    call(object)
                    counters.operationsApplied += 1
                    continue
                }
                switch setter.apply(object, operation.operation, context) {
                case .applied:
                    counters.operationsApplied += 1
                case .wrongTarget:
                    break
                case .valueMismatch(let reason):
                    report(.error(.runtimeValueMismatch,
                                  "operation '\(operation.operation.name)' of instance '\(instance.id)': \(reason); it is skipped",
                                  at: nil),
                           key: "value|\(instance.id)|\(operation.operation.name)|\(operation.state)", group: group)
                }
            case .revert(let setter, let state):
                revert(slot: slot, object: object, setter: setter, state: state)
            }
        }
    }

    private func valueContext(group: Int32) -> ValueContext {
        let current = scopes[Int(groups[Int(group)].scope)].current
        return ValueContext(images: current?.images)
    }

    /// Explicit loops, not `contains(where:)`: a closure here would be copied per element
    /// and checked for main-actor isolation on every call.
    private func originalIndex(slot: Int32, setter: OperationSetter, state: ControlState) -> Int? {
        slots.base[Int(slot)].originals.withUnsafeBufferPointer { originals in
            for index in 0..<originals.count
            where originals[index].setter === setter && originals[index].state == state {
                return index
            }
            return nil
        }
    }

    private func hasOriginal(slot: Int32, setter: OperationSetter, state: ControlState) -> Bool {
        originalIndex(slot: slot, setter: setter, state: state) != nil
    }

    private func revert(slot: Int32, object: AnyObject, setter: OperationSetter, state: ControlState) {
        guard let index = originalIndex(slot: slot, setter: setter, state: state) else { return }
        let original = slots.base[Int(slot)].originals.remove(at: index)
        original.setter.restore(object, original.state, original.value)
        counters.operationsReverted += 1
    }

    /// Puts back every recorded original, newest first (the order that undoes the writes).
    private func revertAll(slot: Int32, object: AnyObject) {
        while let original = slots.base[Int(slot)].originals.popLast() {
            original.setter.restore(object, original.state, original.value)
            counters.operationsReverted += 1
        }
    }

    private func accepts(_ instance: PreparedInstance, _ object: AnyObject, group: Int32) -> Bool {
        guard let binding = instance.binding else {
            report(.error(.runtimeUnboundComponent,
                          "no binding is registered for component type '\(instance.component)' (instance '\(instance.id)'); register a ComponentBinding for it",
                          at: nil),
                   key: "unbound|\(instance.component)", group: group)
            return false
        }
        guard binding.accepts(object) else {
            let type = String(describing: Swift.type(of: object))
            report(.error(.runtimeComponentMismatch,
                          "instance '\(instance.id)' is a '\(instance.component)' (bound to \(binding.typeName)), but the component styled as it is a \(type); nothing is applied to it",
                          at: nil),
                   key: "mismatch|\(instance.id)|\(type)", group: group)
            return false
        }
        return true
    }

    private func reportUnknownIdentifier(group: Int32) {
        let name = identifiers[Int(groups[Int(group)].identifier)]
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

    private func emitChanges(group: Int32, instance: PreparedInstance, components: Int) {
        guard let onChange, !pending.isEmpty else { return }
        let identifier = identifiers[Int(groups[Int(group)].identifier)]
        for change in pending {
            switch change {
            case .set(let index, _):
                let operation = instance.operations[index].operation
                onChange(StyleChange(identifier: identifier, operation: operation.name,
                                     state: ControlState(rawValue: operation.state),
                                     kind: .set(operation.params.count == 1 ? operation.params[0].value
                                         : .array(operation.params.map(\.value))),
                                     components: components))
            case .revert(let setter, let state):
                onChange(StyleChange(identifier: identifier, operation: setter.operation, state: state,
                                     kind: .reverted, components: components))
            }
        }
    }

    // MARK: Registry internals

    func intern(_ identifier: String) -> Int32 {
        if let number = identifierNumbers[identifier] { return number }
        let number = Int32(identifiers.count)
        identifiers.append(identifier)
        identifierNumbers[identifier] = number
        return number
    }

    /// Interns an operation identity (name, state); prepared themes share the numbers.
    func internOperation(_ name: String, _ state: String) -> Int32 {
        let key = OperationKey(name: name, state: state)
        if let number = operationNumbers[key] { return number }
        let number = Int32(operationNumbers.count)
        operationNumbers[key] = number
        return number
    }

    private func group(scope: Int32, identifier: Int32) -> Int32 {
        if let group = scopes[Int(scope)].groupByIdentifier[identifier] { return group }
        let group = Int32(groups.count)
        groups.append(Group(scope: scope, identifier: identifier,
                            applied: scopes[Int(scope)].current?.instance(identifier: identifier)))
        scopes[Int(scope)].groupByIdentifier[identifier] = group
        scopes[Int(scope)].groups.append(group)
        return group
    }

    /// The slot of `component` if it is registered and alive. A slot whose object died and
    /// whose address was reused by `component` is reclaimed here.
    private func liveSlot(of component: AnyObject) -> Int32? {
        guard let slot = slotByObject[ObjectIdentifier(component)] else { return nil }
        if slots.base[Int(slot)].object === component { return slot }
        releaseSlot(slot)
        return nil
    }

    private func allocateSlot(for component: AnyObject) -> Int32 {
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.append(Slot())
        }
        slots.base[Int(slot)].object = component
        slots.base[Int(slot)].objectID = ObjectIdentifier(component)
        slotByObject[ObjectIdentifier(component)] = slot
        return slot
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
        if slotByObject[objectID] == slot { slotByObject[objectID] = nil }
        slots.base[Int(slot)].object = nil
        slots.base[Int(slot)].objectID = nil
        slots.base[Int(slot)].accepted = false
        slots.base[Int(slot)].originals.removeAll()
        freeSlots.append(slot)
    }

    /// Looks at a few slots per call, reclaiming released components' slots, so the table
    /// never fills with dead entries and no call pays for more than a constant amount.
    private func sweep(steps: Int) {
        guard slots.count > 0 else { return }
        for _ in 0..<steps {
            if sweepCursor >= slots.count { sweepCursor = 0 }
            if slots.base[sweepCursor].objectID != nil, slots.base[sweepCursor].object == nil {
                releaseSlot(Int32(sweepCursor))
            }
            sweepCursor += 1
        }
    }
}

/// The registry's slots in one manually managed buffer: an apply pass reads a slot's weak
/// reference and links in place, without copying the slot (an `Array` of structs holding a
/// weak reference would copy, and pay exclusivity checks, on every access).
final class SlotStorage {
    private(set) var base: UnsafeMutablePointer<Applicator.Slot>
    private(set) var count = 0
    private var capacity = 64

    init() {
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Appends a slot and returns its index; amortised O(1).
    func append(_ slot: Applicator.Slot) -> Int32 {
        if count == capacity {
            let grown = UnsafeMutablePointer<Applicator.Slot>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: slot)
        count += 1
        return Int32(count - 1)
    }
}
