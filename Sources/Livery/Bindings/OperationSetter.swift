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
/// are `@inlinable`: compiled in the declaring module, they are specialised there; compiled
/// here, the closures would run generic, through value witnesses (`livery-switch-bench` warm
/// switch).
///
/// Originals (what makes revert possible) are written by these closures, typed, into memory the
/// applicator owns (one block per component, see `OriginalsStore`): recording one allocates
/// nothing, and no original is boxed in an `Any`.
///
/// Invariant that makes the raw memory safe: every pointer handed to these closures was
/// initialised by the same setter's closures, as `Property` (originals) or as the value type
/// `decodeInto` writes (values), so binding it to that type is correct; the applicator never
/// moves or copies it as bytes while it is initialised except by these closures.
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
    @usableFromInline let captureAndApplyStored:
        @MainActor (AnyObject, UnsafeRawPointer, UnsafeMutableRawPointer) -> Void
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
                return .valueMismatch(
                    "its params \(resolved.params.map(\.name)) do not decode for \(component).\(operation)")
            }
            set(target, value, resolved.state)
            return .applied
        }
        self.originalSize = MemoryLayout<Property>.size
        self.originalAlignment = MemoryLayout<Property>.alignment
        // `_isPOD` (an underscored standard-library query) is true exactly when the type holds no
        // references and needs no deinitialisation, so skipping `discard` or `destroyStored` for
        // it leaks nothing.
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
                plainSet(
                    OperationSetter.target(object, Target.self), memory.assumingMemoryBound(to: Property.self).pointee)
            }
            self.captureAndApplyStored = { object, memory, original in
                let target = OperationSetter.target(object, Target.self)
                original.initializeMemory(as: Property.self, to: plainGet(target))
                plainSet(target, memory.assumingMemoryBound(to: Property.self).pointee)
            }
            // Nonisolated: a prepared theme's values are destroyed wherever it is released.
            self.destroyStored =
                _isPOD(Property.self)
                ? nil
                : { @Sendable memory in
                    memory.assumingMemoryBound(to: Property.self).deinitialize(count: 1)
                }
        } else {
            self.valueSize = MemoryLayout<StateValue<Property>>.size
            self.valueAlignment = MemoryLayout<StateValue<Property>>.alignment
            self.decodeInto = { resolved, memory in
                guard let value = decode(resolved, ValueContext()) else { return false }
                memory.initializeMemory(
                    as: StateValue<Property>.self,
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
            self.destroyStored =
                _isPOD(StateValue<Property>.self)
                ? nil
                : { @Sendable memory in
                    memory.assumingMemoryBound(to: StateValue<Property>.self).deinitialize(count: 1)
                }
        }
        self.capture = { object, state, original in
            original.initializeMemory(as: Property.self, to: get(OperationSetter.target(object, Target.self), state))
        }
        self.restore = { object, state, original in
            set(
                OperationSetter.target(object, Target.self), original.assumingMemoryBound(to: Property.self).move(),
                state)
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
