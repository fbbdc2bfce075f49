/// Operations in effective order (identities are interned numbers, see `IdentityTable`): adding one whose identity (name, state) is already present
/// removes the earlier one, and the final order is that of each identity's last occurrence.
///
/// A short list finds an identity by scanning; a table of positions is built only past
/// `scanLimit` entries (bench-brands.py, validate: a table allocated per resolved instance and
/// per class cost more than the scans it saved).
struct OperationList<Element> {
    private var slots: [(identity: Int, element: Element?)] = []
    private var positions: [Int: Int] = [:]
    private static var scanLimit: Int { 32 }

    /// Adds `element`, returning the one it replaced, if any.
    @discardableResult
    mutating func add(_ element: Element, identity: Int) -> Element? {
        var replaced: Element?
        if let position = position(of: identity) {
            replaced = slots[position].element
            slots[position].element = nil
        }
        if slots.count >= Self.scanLimit {
            if positions.isEmpty {
                for (position, slot) in slots.enumerated() where slot.element != nil {
                    positions[slot.identity] = position
                }
            }
            positions[identity] = slots.count
        }
        slots.append((identity, element))
        return replaced
    }

    mutating func add(contentsOf elements: [Element], identity: (Element) -> Int) {
        for element in elements { add(element, identity: identity(element)) }
    }

    /// Where the element with `identity` is (one is, at most: an emptied slot of the same
    /// identity comes before it).
    private func position(of identity: Int) -> Int? {
        if slots.count > Self.scanLimit { return positions[identity] }
        return slots.lastIndex { $0.identity == identity }
    }

    var elements: [Element] { slots.compactMap(\.element) }
}
