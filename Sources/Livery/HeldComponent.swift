#if !canImport(ObjectiveC)
internal import CSwiftRuntime
#endif

/// How the registry holds a component: without keeping it alive, and able to tell whether it
/// still lives.
///
/// A `weak` reference would do, but on a native Swift object the first one allocates a side
/// table for the object's reference counts, and from then on every retain and release of the
/// object takes the runtime's slow path. Registering 10,000 components spent 13% of its
/// instructions forming weak references, and a switch spent 13% of its time in slow-path weak
/// loads and releases (callgrind and perf, `livery-chat-demo --profile-register`).
///
/// Without Objective-C, every class instance is a native Swift object, and the runtime's
/// unowned reference count does the same job inline: an unowned retain keeps the object's
/// memory (not the object: its deinit still runs when the last strong reference goes), and
/// `swift_tryRetain` loads it strongly only if it is not being deallocated; that is what a
/// weak load does too, minus the side table. These are stable entry points of the Swift
/// runtime's ABI, the ones `unowned` and `weak` themselves compile to (declared in
/// `Sources/CSwiftRuntime`, as Swift code may not name them). With Objective-C,
/// components may be Objective-C objects (UIKit views), which those entry points do not handle,
/// so a plain weak reference is used there.
///
/// A plain value: the registry's manually managed slot storage calls `release()` exactly once
/// for every `init`.
struct HeldComponent {
    #if canImport(ObjectiveC)
    private weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }

    /// The component, retained, unless it was released.
    @inline(__always)
    func load() -> AnyObject? { object }

    /// Whether the component is being or has been deallocated.
    var isReleased: Bool { object == nil }

    mutating func release() {
        object = nil
    }
    #else
    private let pointer: UnsafeMutableRawPointer

    init(_ object: AnyObject) {
        pointer = Unmanaged.passUnretained(object).toOpaque()
        _ = swift_unownedRetain(pointer)
    }

    /// The component, retained, unless it was released.
    @inline(__always)
    func load() -> AnyObject? {
        guard swift_tryRetain(pointer) != nil else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Whether the component is being or has been deallocated.
    var isReleased: Bool { swift_isDeallocating(pointer) }

    /// Gives the object's memory back if the object is gone. Call exactly once.
    func release() {
        swift_unownedRelease(pointer)
    }
    #endif
}
