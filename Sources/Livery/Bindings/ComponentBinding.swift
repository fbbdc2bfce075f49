import LiveryModel

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

    /// The binding without its Swift type, as the applicator's `BindingTable` keeps it.
    var erased: ErasedBinding {
        ErasedBinding(
            component: component, parent: parent, targetType: Target.self, setters: setters,
            accepts: { $0 is Target },
            acceptsType: { $0 is Target.Type })
    }
}
