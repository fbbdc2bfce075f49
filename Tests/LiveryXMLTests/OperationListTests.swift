import Testing

@testable import LiveryXML

/// `OperationList` against the rule it implements, written the plain way: adding an identity
/// already present removes the earlier element, and the order is that of each identity's last
/// occurrence. Lists short enough to scan and long enough to need the table of positions.
@Suite struct OperationListTests {
    /// The rule, by brute force.
    static func expected(_ added: [(identity: Int, element: Int)]) -> [Int] {
        added.enumerated().filter { index, entry in
            !added[(index + 1)...].contains { $0.identity == entry.identity }
        }.map(\.element.element)
    }

    @Test(arguments: [1, 5, 31, 32, 33, 40, 200])
    func keepsEachIdentitysLastOccurrenceInOrder(count: Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let identities = max(1, count / 2)
            let added = (0..<count).map { (identity: Int.random(in: 0..<identities, using: &generator), element: $0) }
            var list = OperationList<Int>()
            var replaced: [Int?] = []
            for entry in added { replaced.append(list.add(entry.element, identity: entry.identity)) }
            #expect(list.elements == Self.expected(added), "\(added)")
            for (index, entry) in added.enumerated() {
                let earlier = added[..<index].last { $0.identity == entry.identity }?.element
                #expect(replaced[index] == earlier)
            }
        }
    }
}
