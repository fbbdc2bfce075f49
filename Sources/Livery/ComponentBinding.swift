import LiveryModel

/// What happened when a setter ran.
enum SetterOutcome {
    case applied
    /// The object is not of the binding's Swift type (only when a binding was misdeclared).
    case wrongTarget
    /// The param is missing or its value has a type the setter does not take.
    case valueMismatch(String)
}

/// One operation of a component type, type-erased so that the applicator can hold bindings of
/// every Swift type in one table. `capture` and `restore` are what make revert possible: the
/// property's original value is read before the theme first writes it.
@MainActor
final class OperationSetter {
    let operation: String
    /// Whether the setter distinguishes states (`titleColor` for `highlighted`...).
    let takesState: Bool
    /// The binding that declared it (for messages).
    let component: String
    let apply: @MainActor (AnyObject, ResolvedOperation, ValueContext) -> SetterOutcome
    let capture: @MainActor (AnyObject, ControlState) -> Any?
    let restore: @MainActor (AnyObject, ControlState, Any) -> Void
    /// Decodes an operation once, when a theme is prepared, into a call that only sets the
    /// value: what a switch runs per component. Nil when the value does not decode (the
    /// `apply` path then reports why). Not used for operations with images, which are read
    /// when applied.
    let prepare: @MainActor (ResolvedOperation) -> (@MainActor (AnyObject) -> Void)?

    init(operation: String, takesState: Bool, component: String,
         apply: @escaping @MainActor (AnyObject, ResolvedOperation, ValueContext) -> SetterOutcome,
         capture: @escaping @MainActor (AnyObject, ControlState) -> Any?,
         restore: @escaping @MainActor (AnyObject, ControlState, Any) -> Void,
         prepare: @escaping @MainActor (ResolvedOperation) -> (@MainActor (AnyObject) -> Void)?) {
        self.prepare = prepare
        self.operation = operation
        self.takesState = takesState
        self.component = component
        self.apply = apply
        self.capture = capture
        self.restore = restore
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
/// includes `uiview`'s), provided its Swift type is a subclass of that binding's type.
@MainActor
public struct ComponentBinding<Target: AnyObject> {
    /// The component type as themes name it, e.g. `uibutton`.
    public let component: String
    /// The component type this one extends; when nil, the applicator's schema decides.
    public let parent: String?
    var setters: [String: OperationSetter] = [:]

    public init(_ component: String, extends parent: String? = nil, for type: Target.Type = Target.self) {
        self.component = component
        self.parent = parent
    }

    /// The operation names this binding declares itself (not inherited ones), sorted.
    public var operations: [String] { setters.keys.sorted() }

    /// The general form: `decode` turns the whole operation (every param) into the value the
    /// setter takes; use it for operations with several params.
    public mutating func bind<Property>(
        _ operation: String,
        decode: @escaping @MainActor (ResolvedOperation, ValueContext) -> Property?,
        get: @escaping @MainActor (Target, ControlState) -> Property,
        set: @escaping @MainActor (Target, Property, ControlState) -> Void,
        takesState: Bool = true
    ) {
        let component = self.component
        setters[operation] = OperationSetter(
            operation: operation, takesState: takesState, component: component,
            apply: { object, resolved, context in
                guard let target = object as? Target else { return .wrongTarget }
                guard let value = decode(resolved, context) else {
                    return .valueMismatch("its params \(resolved.params.map(\.name)) do not decode for \(component).\(operation)")
                }
                set(target, value, ControlState(rawValue: resolved.state))
                return .applied
            },
            capture: { object, state in
                guard let target = object as? Target else { return nil }
                return get(target, state) as Any
            },
            restore: { object, state, original in
                guard let target = object as? Target, let value = original as? Property else { return }
                set(target, value, state)
            },
            prepare: { resolved in
                guard let value = decode(resolved, ValueContext(images: nil)) else { return nil }
                let state = ControlState(rawValue: resolved.state)
                return { object in set(Self.target(object), value, state) }
            })
    }

    /// The applicator calls a setter only on objects its binding accepted (`object is
    /// Target`, checked once at registration) and inherits setters only from bindings whose
    /// class is a superclass (checked when bindings are resolved), so the cast cannot fail;
    /// skipping the dynamic cast matters on the per-component path.
    @inline(__always)
    static func target(_ object: AnyObject) -> Target {
        assert(object is Target, "a setter of \(Target.self) was called on \(type(of: object))")
        return unsafeDowncast(object, to: Target.self)
    }

    /// A property that differs per state, e.g. a button's title colour. `param` names the
    /// param to read; nil means the operation's only param.
    public mutating func bindPerState<Property: ThemeValueConvertible>(
        _ operation: String, param: String? = nil,
        get: @escaping @MainActor (Target, ControlState) -> Property,
        set: @escaping @MainActor (Target, Property, ControlState) -> Void
    ) {
        addSetter(operation, param: param, takesState: true, get: get,
                  set: { target, value, state in set(target, value, ControlState(rawValue: state)) })
    }

    /// A property with one value whatever the state.
    public mutating func bind<Property: ThemeValueConvertible>(
        _ operation: String, param: String? = nil,
        get: @escaping @MainActor (Target) -> Property,
        set: @escaping @MainActor (Target, Property) -> Void
    ) {
        addSetter(operation, param: param, takesState: false, get: { target, _ in get(target) },
                  set: { target, value, _ in set(target, value) })
    }

    /// The one-param forms, with the decoding inlined: this closure is what a switch calls
    /// for every operation of every component, so it has as few hops as possible.
    private mutating func addSetter<Property: ThemeValueConvertible>(
        _ operation: String, param: String?, takesState: Bool,
        get: @escaping @MainActor (Target, ControlState) -> Property,
        set: @escaping @MainActor (Target, Property, String) -> Void
    ) {
        let component = self.component
        setters[operation] = OperationSetter(
            operation: operation, takesState: takesState, component: component,
            apply: { object, resolved, context in
                guard let target = object as? Target else { return .wrongTarget }
                guard let value: Property = Self.decode(resolved, param: param, context: context) else {
                    return .valueMismatch("its params \(resolved.params.map(\.name)) do not decode for \(component).\(operation)")
                }
                set(target, value, resolved.state)
                return .applied
            },
            capture: { object, state in
                guard let target = object as? Target else { return nil }
                return get(target, state) as Any
            },
            restore: { object, state, original in
                guard let target = object as? Target, let value = original as? Property else { return }
                set(target, value, state.rawValue)
            },
            prepare: { resolved in
                guard let value: Property = Self.decode(resolved, param: param, context: ValueContext(images: nil))
                else { return nil }
                let state = resolved.state
                return { object in set(Self.target(object), value, state) }
            })
    }

    /// A property reached through a key path: the shortest form for a plain stored property.
    public mutating func bind<Property: ThemeValueConvertible>(
        _ operation: String, param: String? = nil, _ keyPath: ReferenceWritableKeyPath<Target, Property>
    ) {
        bind(operation, param: param, get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
    }

    @inline(__always)
    static func decode<Property: ThemeValueConvertible>(
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
            typeName: String(describing: Target.self),
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
    let typeName: String
    let targetType: Any.Type
}

/// A binding with its inherited operations folded in: what apply passes look setters up in.
@MainActor
final class ResolvedBinding {
    let component: String
    let typeName: String
    let accepts: @MainActor (AnyObject) -> Bool
    let setters: [String: OperationSetter]

    init(component: String, typeName: String, accepts: @escaping @MainActor (AnyObject) -> Bool,
         setters: [String: OperationSetter]) {
        self.component = component
        self.typeName = typeName
        self.accepts = accepts
        self.setters = setters
    }
}

/// Every binding an applicator knows, with inheritance resolved lazily and cached until a
/// binding or the schema changes.
@MainActor
final class BindingTable {
    private(set) var bindings: [String: AnyComponentBinding] = [:]
    private var resolved: [String: ResolvedBinding] = [:]
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
        bindings[binding.component] = binding
        invalidate()
    }

    private func invalidate() {
        resolved.removeAll()
        generation += 1
    }

    /// The parent the binding names, else the one the schema declares.
    func parent(of component: String) -> String? {
        bindings[component]?.parent ?? schema.components[component]?.extends
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
        let result = ResolvedBinding(component: component, typeName: own.typeName, accepts: own.accepts, setters: setters)
        resolved[component] = result
        return result
    }
}
