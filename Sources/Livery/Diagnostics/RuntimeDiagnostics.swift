import LiveryModel

/// Codes of the findings the runtime reports. They are stable: apps and tests match on them.
extension DiagnosticCode {
    /// A component was styled with an identifier the active theme does not define.
    public static let runtimeUnknownIdentifier: DiagnosticCode = "runtime-unknown-identifier"
    /// The theme says the identifier is one component type; the styled object is not of a Swift
    /// type bound to it.
    public static let runtimeComponentMismatch: DiagnosticCode = "runtime-component-mismatch"
    /// No binding exists for the instance's component type.
    public static let runtimeUnboundComponent: DiagnosticCode = "runtime-unbound-component"
    /// The binding for the component type has no setter for an operation the theme uses.
    public static let runtimeUnknownOperation: DiagnosticCode = "runtime-unknown-operation"
    /// A param is missing or holds a value the setter cannot take.
    public static let runtimeValueMismatch: DiagnosticCode = "runtime-value-mismatch"
    /// The theme gives a state to an operation whose setter has none.
    public static let runtimeUnexpectedState: DiagnosticCode = "runtime-unexpected-state"
    /// An image's file could not be found or read.
    public static let runtimeAssetUnavailable: DiagnosticCode = "runtime-asset-unavailable"
    /// A binding extends a component whose bound Swift type is not a supertype of its own.
    public static let runtimeBindingInheritance: DiagnosticCode = "runtime-binding-inheritance"
    /// A theme could not be found or loaded; the previous theme stays in use.
    public static let runtimeThemeUnavailable: DiagnosticCode = "runtime-theme-unavailable"
    /// The configuration file is missing or malformed.
    public static let runtimeConfiguration: DiagnosticCode = "runtime-configuration"
    /// A value given for a personal choice (`ScopeOverrides.constants`) that the theme cannot
    /// take: no overridable constant of that name, another type, or a value its uses cannot hold.
    public static let runtimeChoiceRefused: DiagnosticCode = "runtime-choice-refused"
}

/// Where the runtime's findings go. Problems at run time must never crash an app, yet must not
/// pass silently either: each distinct finding is delivered once to every observer and kept in
/// `reported`, so a developer sees it in the console and a test can assert on it.
///
/// Invariant: memory is bounded. `reported` keeps the last `capacity` findings, and the keys of
/// what was delivered are remembered for the last `capacity` distinct findings; a finding older
/// than that is delivered again if it recurs.
@MainActor
public final class DiagnosticHook {
    /// The findings delivered so far, oldest first, at most `capacity` of them.
    public private(set) var reported: [Diagnostic] = []
    /// How many findings `reported` keeps; older ones are dropped (observers saw them all).
    public let capacity: Int
    /// The keys of the last `capacity` distinct findings delivered, and the same keys in the
    /// order they were delivered (the oldest is forgotten first).
    private var seen: Set<DiagnosticKey> = []
    private var seenOrder: [DiagnosticKey] = []
    private var seenStart = 0
    private let observers = ObserverList<Diagnostic>()

    /// A hook that keeps the last `capacity` findings (at least 1).
    public init(capacity: Int = 1000) {
        self.capacity = max(1, capacity)
    }

    /// Calls `observer` with every finding reported from now on, for as long as the token is
    /// kept: releasing it (or `cancel()`) stops the observation.
    public func observe(_ observer: @escaping @MainActor (Diagnostic) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Delivers `diagnostic` unless a finding with the same `key` was delivered before.
    /// The key names the problem (code, theme, identifier, operation...) so one broken
    /// operation on 10,000 components yields one finding, not 10,000.
    public func report(_ diagnostic: Diagnostic, key: String) {
        report(diagnostic, key: DiagnosticKey(key))
    }

    /// Delivers `diagnostic` unless a finding with an equal `key` was delivered before.
    public func report(_ diagnostic: Diagnostic, key: DiagnosticKey) {
        guard seen.insert(key).inserted else { return }
        remember(key)
        if reported.count >= capacity { reported.removeFirst(reported.count - capacity + 1) }
        reported.append(diagnostic)
        observers.notify(diagnostic)
    }

    /// Forgets which findings were delivered, so they are reported again if they recur.
    public func reset() {
        seen.removeAll()
        seenOrder.removeAll()
        seenStart = 0
        reported.removeAll()
    }

    /// Records `key` as delivered, forgetting the oldest key once `capacity` are remembered.
    private func remember(_ key: DiagnosticKey) {
        seenOrder.append(key)
        if seenOrder.count - seenStart > capacity {
            seen.remove(seenOrder[seenStart])
            seenStart += 1
            // Drop the forgotten prefix once it is half the array, so the array stays within
            // twice `capacity` and the removal is amortised O(1).
            if seenStart > capacity {
                seenOrder.removeFirst(seenStart)
                seenStart = 0
            }
        }
    }
}

/// The observers of one kind of event, called in the order they subscribed, each for as long
/// as its token is kept.
///
/// An array, not a dictionary by token number: there are a handful, order matters, and on Linux
/// the first dictionary keyed by a type costs the launch a scan of every loaded image's
/// conformance records (`livery-bench launch`).
@MainActor
final class ObserverList<Event> {
    private var entries: [(key: Int, observer: @MainActor (Event) -> Void)] = []
    private var nextKey = 0

    func add(_ observer: @escaping @MainActor (Event) -> Void) -> ObservationToken {
        let key = nextKey
        nextKey += 1
        entries.append((key, observer))
        return ObservationToken { [weak self] in self?.entries.removeAll { $0.key == key } }
    }

    /// Calls every observer; one cancelled by an earlier one during this call is not called.
    func notify(_ event: Event) {
        for entry in entries where entries.contains(where: { $0.key == entry.key }) {
            entry.observer(event)
        }
    }
}

/// An observation, for as long as the token lives: `cancel()` ends it, and so does releasing the
/// token, so an observer cannot outlive the object that keeps its token (keep it in a property).
@MainActor
public final class ObservationToken {
    private var onCancel: (@MainActor () -> Void)?
    init(_ onCancel: @escaping @MainActor () -> Void) { self.onCancel = onCancel }

    /// Ends the observation now; releasing the token later does nothing more.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    isolated deinit {
        onCancel?()
    }
}
