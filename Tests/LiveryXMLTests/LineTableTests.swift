import LiveryXML
import Testing

@Suite struct LineTableTests {
    /// The block index finds the same line as a walk over every line start, for every offset of
    /// texts whose lines are shorter and longer than a block, and offsets outside the text.
    @Test func findsTheLineOfEveryOffset() {
        var generator = SystemRandomNumberGenerator()
        for lengths in [
            [0], [1, 1, 1], [5000, 3, 9000, 0, 4096, 4095],
            (0..<400).map { _ in Int.random(in: 0..<90, using: &generator) },
        ] {
            var bytes: [UInt8] = []
            for length in lengths { bytes += Array(repeating: UInt8(ascii: "a"), count: length) + [UInt8(ascii: "\n")] }
            let table = LineTable(bytes)
            for offset in -2...(bytes.count + 5000) {
                let expected = max(table.starts.lastIndex { $0 <= offset } ?? 0, 0)
                #expect(table.line(containing: offset) == expected, "offset \(offset) of \(lengths.count) lines")
                if table.line(containing: offset) != expected { return }
            }
        }
    }
}
