import LiveryModel

extension Unmanaged where Instance == OperationSetter {
    /// Calls `body` with the setter without retaining it. Invariant that makes this safe: every
    /// setter a prepared operation, a layout or an overflow original points to is kept alive by
    /// the binding table (`BindingTable.replacedSetters` for replaced bindings) or by the
    /// prepared theme's bindings, for as long as the pointer is used. A wrapper compiled in
    /// Swift 6 mode on purpose: a closure literal handed straight to the standard library's
    /// underscored `_withUnsafeGuaranteedRef` gets a dynamic main-actor check on every call
    /// (`livery-switch-bench` warm switch).
    @inline(__always)
    func withGuaranteedSetter<Result>(_ body: (OperationSetter) -> Result) -> Result {
        _withUnsafeGuaranteedRef(body)
    }
}

/// Lends the buffers of two arrays. Written here, compiled in Swift 6 mode, for the same reason
/// as `withGuaranteedSetter`: closure literals handed to the standard library's
/// `withUnsafeBufferPointer` from main-actor code get a dynamic isolation check per call.
@inline(__always)
func withBuffers<A, B, Result>(
    _ first: ContiguousArray<A>, _ second: ContiguousArray<B>,
    _ body: (UnsafeBufferPointer<A>, UnsafeBufferPointer<B>) -> Result
) -> Result {
    first.withUnsafeBufferPointer { first in second.withUnsafeBufferPointer { second in body(first, second) } }
}
