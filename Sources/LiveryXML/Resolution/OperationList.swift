/// Operations in effective order: adding one whose identity (name, state) is already present
/// removes the earlier one, and the final order is that of each identity's last occurrence.
struct OperationList<Element> {
    private var slots: [Element?] = []
    private var positions: [OperationIdentity: Int] = [:]

    /// Adds `element`, returning the one it replaced, if any.
    @discardableResult
    mutating func add(_ element: Element, identity: OperationIdentity) -> Element? {
        var replaced: Element?
        if let position = positions[identity] {
            replaced = slots[position]
            slots[position] = nil
        }
        positions[identity] = slots.count
        slots.append(element)
        return replaced
    }

    mutating func add(contentsOf elements: [Element], identity: (Element) -> OperationIdentity) {
        for element in elements { add(element, identity: identity(element)) }
    }

    var elements: [Element] { slots.compactMap { $0 } }
}
