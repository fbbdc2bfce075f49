import LiveryModel
import Testing

@Suite struct OperationKeyTests {
    @Test func anOperationKeyNamesItsStateOnlyWhenNotNormal() {
        #expect(OperationKey(name: "titleColor").description == "titleColor")
        #expect(OperationKey(name: "titleColor", state: .highlighted).description == "titleColor[highlighted]")
        #expect(
            ResolvedOperation(name: "title", state: .selected, params: []).key
                == OperationKey(name: "title", state: "selected"))
    }

    @Test func numberingKeepsTheFirstNumberOfEachKey() {
        let title = OperationKey(name: "title")
        let highlighted = OperationKey(name: "title", state: .highlighted)
        var numbering = OperationKeyNumbering([title, highlighted, title])
        #expect(numbering.keys == [title, highlighted])
        #expect(numbering.number(highlighted) == 1)
        #expect(numbering.number(OperationKey(name: "font")) == 2)
        #expect(numbering.keys.count == 3)
    }

    @Test func theFormatsStatesInOrder() {
        #expect(ControlState.all.map(\.rawValue) == ["normal", "highlighted", "disabled", "selected", "focused"])
        #expect(ControlState.normal == "normal")
    }
}
