import LiveryModel
import Testing

/// Values print one way: the line `explain`, `diff`, the preview and `StyleChange` show spells
/// every number, string and colour as `livery dump` does.
@Suite struct ValueTextTests {
    static let empty = ResolvedTheme(info: ThemeInfo(id: "t", name: "T"), traits: .none, instances: [], assets: .empty)

    /// The dump's spelling of a scalar: its one-key object's payload, rendered on one line.
    static func dumped(_ value: Value) -> String {
        guard case .object(let members) = CanonicalJSON.value(value, theme: empty, scale: 1) else { return "" }
        return members[0].1.rendered(pretty: false)
    }

    @Test func scalarsPrintAsTheDumpPrintsThem() {
        let values: [Value] = [
            .float(8), .float(0.1 + 0.2), .float(-1.5e-7), .integer(-3), .bool(true),
            .string("Send"), .string("two\nlines \"quoted\" \\ é"),
        ]
        for value in values {
            #expect(ValueText.describe(value) == Self.dumped(value), "\(value)")
        }
        // A colour is the dump's hex string, without the JSON quotes.
        let color = Value.color(Color(red: 1, green: 0.231, blue: 0.188, alpha: 0.5))
        #expect("\"" + ValueText.describe(color) + "\"" == Self.dumped(color))
    }

    @Test func compositesUseTheSameNumbers() {
        #expect(ValueText.describe(.rect(Rect(x: 0, y: 0.5, width: 375, height: 44))) == "0, 0.5, 375, 44")
        #expect(ValueText.describe(.insets(Insets(top: 1, left: 2, bottom: 3, right: 0.25))) == "1, 2, 3, 0.25")
        #expect(
            ValueText.describe(.font(Font(family: "Helvetica Neue", size: 16, weight: .semibold)))
                == "Helvetica Neue 16 semibold")
        #expect(
            ValueText.describe(.font(Font(family: "Body", size: nil, maxSize: 28, scaling: .fixed)))
                == "Body default size regular max 28 fixed")
        #expect(ValueText.describe([Param(name: "radius", value: .float(8))]) == "float 8")
        #expect(
            ValueText.describe([Param(name: "a", value: .integer(1)), Param(name: "b", value: .string("x"))])
                == "a=1 b=\"x\"")
    }
}
