/// How the registry holds a component: weakly, so the applicator never keeps one alive, and
/// able to tell whether it still lives.
///
/// A plain `weak` reference, the same on every platform (components may be Objective-C objects,
/// UIKit views, where that exists). On a native Swift object the first weak reference allocates
/// a side table for the object's reference counts; the registry pays that once per component at
/// registration. A free slot holds no object.
struct HeldComponent {
    private weak var object: AnyObject?

    /// A free slot's: no object.
    init() {}

    init(_ object: AnyObject) {
        self.object = object
    }

    /// The component, retained, unless it was released.
    @inline(__always)
    func load() -> AnyObject? { object }

    /// Whether the component was released (or the slot is free).
    var isReleased: Bool { object == nil }
}
