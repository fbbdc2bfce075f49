import LiveryModel

/// What happened when a setter ran.
@usableFromInline
enum SetterOutcome {
    case applied
    /// The object is not of the binding's Swift type (only when a binding was misdeclared).
    case wrongTarget
    /// The param is missing or its value has a type the setter does not take.
    case valueMismatch(String)
}

/// One operation of a component type, type-erased so that the applicator can hold bindings of
/// every Swift type in one table.
///
/// Every closure here is created inside the generic initialiser, which `ComponentBinding.bind`
/// calls with concrete types, so each closure is compiled specialised for the binding's
/// `Target` and `Property`: a switch calls `applyStored` with a pointer to an already decoded
/// value, and nothing is boxed, cast dynamically or copied through value witnesses. (Methods
/// of a generic subclass would run unspecialised, through the vtable.) Bindings are declared
/// in other modules (the app's, `LiveryHeadless`), so the initialiser and the `bind` methods
/// are `@inlinable`: compiled in the declaring module, they are specialised there. Compiled
/// here instead, the closures ran generic, looking up `StateValue<Property>`'s metadata and
/// copying through value witnesses on every call (see docs/Performance.md).
///
/// Originals (what makes revert possible) are written by these closures, typed, into memory the
/// applicator owns (one block per component, see `Originals.swift`): recording one allocates
/// nothing, and no original is boxed in an `Any`.
@MainActor
@usableFromInline
final class OperationSetter {
    @usableFromInline let operation: String
    /// Whether the setter distinguishes states (`titleColor` for `highlighted`...).
    @usableFromInline let takesState: Bool
    /// The binding that declared it (for messages).
    @usableFromInline let component: String
    /// The general path: decodes with a context (images), sets, or says why not.
    @usableFromInline let apply: @MainActor (AnyObject, ResolvedOperation, ValueContext) -> SetterOutcome
    /// Size and alignment of the decoded value, for a prepared theme's value storage.
    @usableFromInline let valueSize: Int
    @usableFromInline let valueAlignment: Int
    /// Decodes an operation (without images) into uninitialised memory; false when it does not
    /// decode (the general path then reports why). Not isolated: a theme prepared ahead decodes
    /// its values on another thread (`Applicator.preload`).
    @usableFromInline nonisolated let decodeInto: @Sendable (ResolvedOperation, UnsafeMutableRawPointer) -> Bool
    /// The switch's hot call: sets a value written by `decodeInto`. The object must be one the
    /// binding accepted.
    /// Setters with states read the state stored beside the value; the others get none, so
    /// the hot call copies no string.
    @usableFromInline let applyStored: @MainActor (AnyObject, UnsafeRawPointer) -> Void
    /// Deinitialises a value written by `decodeInto`; nil when the value is trivial (plain
    /// numbers, colours...), so a prepared theme records nothing to destroy for it.
    @usableFromInline let destroyStored: (@Sendable (UnsafeMutableRawPointer) -> Void)?
    /// Whether a decoded value is plain bits (no references, nothing to deinitialise): two of
    /// them with equal bytes are equal.
    nonisolated var valueIsTrivial: Bool { destroyStored == nil }
    /// Size and alignment of an original (the property's type).
    @usableFromInline let originalSize: Int
    @usableFromInline let originalAlignment: Int
    /// Whether an original needs no deinitialisation (`discard` may be skipped).
    @usableFromInline let originalIsTrivial: Bool
    /// Reads the property's current value into uninitialised memory.
    @usableFromInline let capture: @MainActor (AnyObject, ControlState, UnsafeMutableRawPointer) -> Void
    /// A first application's hot call: `capture` into the third pointer (for the state stored
    /// with the value), then `applyStored`, in one specialised call. The original is written
    /// before the setter runs, so app code that re-enters the applicator finds it in place.
    @usableFromInline let captureAndApplyStored: @MainActor (AnyObject, UnsafeRawPointer, UnsafeMutableRawPointer) -> Void
    /// Moves the original out of the memory (leaving it uninitialised) and writes it back.
    @usableFromInline let restore: @MainActor (AnyObject, ControlState, UnsafeMutableRawPointer) -> Void
    /// Deinitialises an original without writing it back (the component is gone). Nonisolated:
    /// the registry's storage discards what is left when the applicator goes.
    @usableFromInline let discard: @Sendable (UnsafeMutableRawPointer) -> Void

    /// `plain` is the getter and setter of a property with one value whatever the state: the
    /// hot calls then go straight to them instead of through the wrappers `get` and `set`.
    @inlinable
    init<Target: AnyObject, Property>(
        operation: String, takesState: Bool, component: String, target: Target.Type, property: Property.Type,
        decode: @escaping @Sendable (ResolvedOperation, ValueContext) -> Property?,
        get: @escaping @MainActor (Target, ControlState) -> Property,
        set: @escaping @MainActor (Target, Property, ControlState) -> Void,
        plain: (get: @MainActor (Target) -> Property, set: @MainActor (Target, Property) -> Void)? = nil
    ) {
        self.operation = operation
        self.takesState = takesState
        self.component = component
        self.apply = { object, resolved, context in
            guard let target = object as? Target else { return .wrongTarget }
            guard let value = decode(resolved, context) else {
                return .valueMismatch("its params \(resolved.params.map(\.name)) do not decode for \(component).\(operation)")
            }
            set(target, value, resolved.state)
            return .applied
        }
        self.originalSize = MemoryLayout<Property>.size
        self.originalAlignment = MemoryLayout<Property>.alignment
        self.originalIsTrivial = _isPOD(Property.self)
        if let (plainGet, plainSet) = plain {
            // One call, straight to the app's closure, with the value read in place.
            self.valueSize = MemoryLayout<Property>.size
            self.valueAlignment = MemoryLayout<Property>.alignment
            self.decodeInto = { resolved, memory in
                guard let value = decode(resolved, ValueContext()) else { return false }
                memory.initializeMemory(as: Property.self, to: value)
                return true
            }
            self.applyStored = { object, memory in
                plainSet(OperationSetter.target(object, Target.self), memory.assumingMemoryBound(to: Property.self).pointee)
            }
            self.captureAndApplyStored = { object, memory, original in
                let target = OperationSetter.target(object, Target.self)
                original.initializeMemory(as: Property.self, to: plainGet(target))
                plainSet(target, memory.assumingMemoryBound(to: Property.self).pointee)
            }
            // Nonisolated: a prepared theme's values are destroyed wherever it is released.
            self.destroyStored = _isPOD(Property.self) ? nil : { @Sendable memory in
                memory.assumingMemoryBound(to: Property.self).deinitialize(count: 1)
            }
        } else {
            self.valueSize = MemoryLayout<StateValue<Property>>.size
            self.valueAlignment = MemoryLayout<StateValue<Property>>.alignment
            self.decodeInto = { resolved, memory in
                guard let value = decode(resolved, ValueContext()) else { return false }
                memory.initializeMemory(as: StateValue<Property>.self,
                                        to: StateValue(value: value, state: resolved.state))
                return true
            }
            self.applyStored = { object, memory in
                let stored = memory.assumingMemoryBound(to: StateValue<Property>.self)
                set(OperationSetter.target(object, Target.self), stored.pointee.value, stored.pointee.state)
            }
            self.captureAndApplyStored = { object, memory, original in
                let target = OperationSetter.target(object, Target.self)
                let stored = memory.assumingMemoryBound(to: StateValue<Property>.self)
                original.initializeMemory(as: Property.self, to: get(target, stored.pointee.state))
                set(target, stored.pointee.value, stored.pointee.state)
            }
            self.destroyStored = _isPOD(StateValue<Property>.self) ? nil : { @Sendable memory in
                memory.assumingMemoryBound(to: StateValue<Property>.self).deinitialize(count: 1)
            }
        }
        self.capture = { object, state, original in
            original.initializeMemory(as: Property.self, to: get(OperationSetter.target(object, Target.self), state))
        }
        self.restore = { object, state, original in
            set(OperationSetter.target(object, Target.self), original.assumingMemoryBound(to: Property.self).move(), state)
        }
        self.discard = { @Sendable original in original.assumingMemoryBound(to: Property.self).deinitialize(count: 1) }
    }

    /// The applicator calls a setter only on objects its binding accepted (`object is
    /// Target`, checked once at registration) and inherits setters only from bindings whose
    /// class is a superclass (checked when bindings are resolved), so the cast cannot fail;
    /// skipping the dynamic cast matters on the per-component path.
    @inlinable @inline(__always)
    static func target<Target: AnyObject>(_ object: AnyObject, _ type: Target.Type) -> Target {
        assert(object is Target, "a setter of \(Target.self) was called on \(Swift.type(of: object))")
        return unsafeDowncast(object, to: Target.self)
    }
}

/// A decoded value with the state it is for, as setters with states store it.
@usableFromInline
struct StateValue<Property> {
    @usableFromInline var value: Property
    @usableFromInline var state: ControlState

    @inlinable
    init(value: Property, state: ControlState) {
        self.value = value
        self.state = state
    }
}

/// Binds a component type of the theme (`uibutton`, `chatbubble`...) to a Swift class: each
/// operation name maps to a typed getter and setter. The getter is what lets the engine put the
/// original value back when a new theme stops setting the property.
///
/// ```swift
/// var bubble = ComponentBinding<ChatBubble>("chatbubble", extends: "uiview")
/// bubble.bind("bubbleColor", get: { $0.bubbleColor(for: $1) }, set: { $0.setBubbleColor($1, for: $2) })
/// bubble.bind("tailStyle", \.tailStyle)
/// applicator.register(bubble)
/// ```
///
/// A binding includes the operations of the component it extends (a `uibutton` binding
/// includes `uiview`'s), provided its Swift type is a subclass of that binding's type. Without
/// `extends:`, a standard component extends what the standard schema says (`uilabel` extends
/// `uiview`) and any other extends nothing, in debug and release builds alike: a custom
/// component's binding names its parent. (A development manager reports a binding that names
/// none when its schema files give the component a parent.)
@MainActor
public struct ComponentBinding<Target: AnyObject> {
    /// The component type as themes name it, e.g. `uibutton`.
    public let component: String
    /// The component type this one extends; when nil, the standard schema's parent for a standard
    /// component (`StandardComponents`), else none.
    public let parent: String?
    @usableFromInline var setters: [String: OperationSetter] = [:]

    /// A binding of `component` (as themes name it) to `type`, with no operations yet; `bind`
    /// adds them.
    public init(_ component: String, extends parent: String? = nil, for type: Target.Type = Target.self) {
        self.component = component
        self.parent = parent
    }

    /// The operation names this binding declares itself (not inherited ones), sorted.
    public var operations: [String] { setters.keys.sorted() }

    /// The general form: `decode` turns the whole operation (every param) into the value the
    /// setter takes; use it for operations with several params. `decode` is not isolated to the
    /// main actor (a theme prepared ahead decodes on another thread): like
    /// `ThemeValueConvertible`, it must depend on the operation alone.
    @inlinable
    public mutating func bind<Property>(
        _ operation: String,
        decode: @escaping @Sendable (ResolvedOperation, ValueContext) -> Property?,
        get: @escaping @MainActor (Target, ControlState) -> Property,
        set: @escaping @MainActor (Target, Property, ControlState) -> Void,
        takesState: Bool = true
    ) {
        setters[operation] = OperationSetter(
            operation: operation, takesState: takesState, component: component, target: Target.self,
            property: Property.self, decode: decode, get: get, set: set)
    }

    /// A property that differs per state, e.g. a button's title colour. `param` names the
    /// param to read; nil means the operation's only param.
    @inlinable
    public mutating func bindPerState<Property: ThemeValueConvertible>(
        _ operation: String, param: String? = nil,
        get: @escaping @MainActor (Target, ControlState) -> Property,
        set: @escaping @MainActor (Target, Property, ControlState) -> Void
    ) {
        addSetter(operation, param: param, takesState: true, get: get, set: set)
    }

    /// A property with one value whatever the state.
    @inlinable
    public mutating func bind<Property: ThemeValueConvertible>(
        _ operation: String, param: String? = nil,
        get: @escaping @MainActor (Target) -> Property,
        set: @escaping @MainActor (Target, Property) -> Void
    ) {
        setters[operation] = OperationSetter(
            operation: operation, takesState: false, component: component, target: Target.self,
            property: Property.self,
            decode: Self.decoder(param: param),
            get: { target, _ in get(target) }, set: { target, value, _ in set(target, value) }, plain: (get, set))
    }

    /// The one-param forms: the param is picked by name (or is the only one) and converted
    /// through `ThemeValueConvertible`.
    @inlinable
    mutating func addSetter<Property: ThemeValueConvertible>(
        _ operation: String, param: String?, takesState: Bool,
        get: @escaping @MainActor (Target, ControlState) -> Property,
        set: @escaping @MainActor (Target, Property, ControlState) -> Void
    ) {
        setters[operation] = OperationSetter(
            operation: operation, takesState: takesState, component: component, target: Target.self,
            property: Property.self,
            decode: Self.decoder(param: param),
            get: get, set: set)
    }

    /// A property reached through a key path: the shortest form for a plain stored property.
    @inlinable
    public mutating func bind<Property: ThemeValueConvertible>(
        _ operation: String, param: String? = nil, _ keyPath: ReferenceWritableKeyPath<Target, Property>
    ) {
        bind(operation, param: param, get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
    }

    /// The decoding closure of the one-param forms: one that captures nothing when no param is
    /// named (the common case). Every operation of every instance a theme prepares is decoded
    /// through it (`livery-switch-bench --profile-register-many` shows the capturing form's cost).
    @inlinable
    nonisolated static func decoder<Property: ThemeValueConvertible>(
        param: String?
    ) -> @Sendable (ResolvedOperation, ValueContext) -> Property? {
        guard let param else { return { resolved, context in decode(resolved, param: nil, context: context) } }
        return { resolved, context in decode(resolved, param: param, context: context) }
    }

    @inlinable @inline(__always)
    nonisolated static func decode<Property: ThemeValueConvertible>(
        _ resolved: ResolvedOperation, param: String?, context: ValueContext
    ) -> Property? {
        let value: Value?
        if let param {
            value = resolved.param(param)
        } else {
            value = resolved.params.count == 1 ? resolved.params[0].value : nil
        }
        guard let value else { return nil }
        return Property.fromThemeValue(value, in: context)
    }

    var erased: AnyComponentBinding {
        AnyComponentBinding(
            component: component, parent: parent, setters: setters,
            accepts: { $0 is Target },
            acceptsType: { $0 is Target.Type },
            targetType: Target.self)
    }
}

/// A binding without its Swift type, as the applicator stores it.
@MainActor
struct AnyComponentBinding {
    let component: String
    let parent: String?
    let setters: [String: OperationSetter]
    let accepts: @MainActor (AnyObject) -> Bool
    let acceptsType: @MainActor (Any.Type) -> Bool
    let targetType: Any.Type

    /// For messages only: describing a type looks up its conformances, which a fresh process
    /// does by scanning the conformance records of every loaded image (see docs/Performance.md).
    var typeName: String { String(describing: targetType) }
}

/// A binding with its inherited operations folded in: what apply passes look setters up in.
@MainActor
final class ResolvedBinding {
    let component: String
    /// The Swift type bound; see `AnyComponentBinding.typeName`.
    let targetType: Any.Type
    var typeName: String { String(describing: targetType) }
    let accepts: @MainActor (AnyObject) -> Bool
    let setters: [String: OperationSetter]
    /// Whether objects of a class are accepted, by class: `is` is a dynamic cast that walks the
    /// class hierarchy, and registration asks once per component.
    private var acceptedClasses: [ObjectIdentifier: Bool] = [:]

    init(component: String, targetType: Any.Type, accepts: @escaping @MainActor (AnyObject) -> Bool,
         setters: [String: OperationSetter]) {
        self.component = component
        self.targetType = targetType
        self.accepts = accepts
        self.setters = setters
    }

    /// The class asked last and the answer: registering a screen asks about the same class
    /// many times in a row.
    @exclusivity(unchecked) private var lastClass: (type: ObjectIdentifier, accepted: Bool)?

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

/// Every binding an applicator knows, with inheritance resolved lazily and cached until a
/// binding or the schema changes.
@MainActor
final class BindingTable {
    private(set) var bindings: [String: AnyComponentBinding] = [:]
    private var resolved: [String: ResolvedBinding] = [:]
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

    func register(_ binding: AnyComponentBinding) {
        if let replaced = bindings.updateValue(binding, forKey: binding.component) {
            replacedSetters.append(contentsOf: replaced.setters.values)
        }
        // The schema (development only) must not decide what a binding inherits, or a release
        // build, which has none, would apply less than the debug build it was tested with.
        if binding.parent == nil, let declared = schema.components[binding.component]?.extends,
           declared != StandardComponents.parent(of: binding.component) {
            diagnostics.report(
                .error(.runtimeBindingInheritance,
                       "binding '\(binding.component)' (\(binding.typeName)) names no parent, but the schema says '\(binding.component)' extends '\(declared)'; a release build has no schema, so in both builds it inherits nothing: register it with extends: \"\(declared)\"",
                       at: schema.components[binding.component]?.location),
                key: "unnamed-parent|\(binding.component)|\(declared)")
        }
        invalidate()
    }

    private func invalidate() {
        resolved.removeAll()
        cachedSnapshot = nil
        generation += 1
    }

    private var cachedSnapshot: BindingSnapshot?

    /// Every registered binding, resolved: what prepared themes look setters up in (on any
    /// thread). Made once per generation; resolving reports inheritance problems, as
    /// `binding(for:)` does.
    func snapshot() -> BindingSnapshot {
        if let cachedSnapshot { return cachedSnapshot }
        var bindings: [ResolvedBinding] = []
        var index: [String: Int32] = [:]
        for component in self.bindings.keys.sorted() {
            guard let binding = binding(for: component) else { continue }
            index[component] = Int32(bindings.count)
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

    func binding(for component: String) -> ResolvedBinding? {
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
                        .error(.runtimeBindingInheritance,
                               "binding '\(component)' (\(own.typeName)) extends '\(ancestor)', whose type \(binding.typeName) is not a supertype of \(own.typeName); its operations are not inherited",
                               at: nil),
                        key: "inherit|\(component)|\(ancestor)")
                }
            }
            current = parent(of: ancestor)
        }
        let result = ResolvedBinding(component: component, targetType: own.targetType, accepts: own.accepts, setters: setters)
        resolved[component] = result
        return result
    }
}
