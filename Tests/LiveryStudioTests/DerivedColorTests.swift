import Foundation
import LiveryModel
import LiveryStudio
import LiveryXML
import Testing

/// Derived colours in the studio (format 1.3, section 9.1): shown as derived, edited at their
/// base, amount or space through the same checked write as every edit, with what follows named.
@Suite struct DerivedColorTests {
    static let derived = "<color name=\"accentStrong\" ref=\"brand\" darken=\"0.2\"/>"

    /// The sample themes with `accentStrong` derived from `brand`, a second colour derived from
    /// `brand`, and the send button's title colour derived in its class.
    static func derivedThemes() throws -> ThemesCopy {
        let copy = try ThemesCopy()
        try derive(in: copy)
        return copy
    }

    static func derive(in copy: ThemesCopy) throws {
        let constants = copy.themes + "/Base.theme/Constants.xml"
        var text = try String(contentsOfFile: constants, encoding: .utf8)
        #expect(text.contains("<color name=\"accentStrong\">#0062CC</color>"))
        text = text.replacingOccurrences(
            of: "<color name=\"accentStrong\">#0062CC</color>",
            with: derived + "\n    <color name=\"brandTint\" ref=\"brand\" lighten=\"0.8\"/>")
        try text.write(toFile: constants, atomically: true, encoding: .utf8)
        let classes = copy.themes + "/Base.theme/Classes.xml"
        var classText = try String(contentsOfFile: classes, encoding: .utf8)
        let title =
            "<param name=\"color\"><color ref=\"onAccent\"/></param>\n      </operation>\n      <operation name=\"titleFont\">"
        #expect(classText.contains(title))
        classText = classText.replacingOccurrences(
            of: title,
            with: title.replacingOccurrences(of: "ref=\"onAccent\"/>", with: "ref=\"onAccent\" alpha=\"0.9\"/>"))
        try classText.write(toFile: classes, atomically: true, encoding: .utf8)
    }

    @Test func aDerivedColourShowsItsBaseModifierAmountAndWhatFollows() async throws {
        let copy = try Self.derivedThemes()
        let session = StudioSession(paths: [copy.themes])
        let send = try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let background = try #require(send.operations.first { $0.name == "backgroundColor" && $0.state == "normal" })
        let derived = try #require(background.derived, "the background is derived from brand")
        #expect(derived.holder == "constant accentStrong")
        #expect(derived.baseConstant == "brand" && derived.base == "#007AFFFF")
        #expect(derived.modifier == "darken" && derived.amount == 0.2 && derived.space == "srgb")
        #expect(derived.result == "#0062CCFF")
        #expect(derived.lines.first == "`accentStrong` = `brand` #007AFF darkened 0.2 in srgb = #0062CC")
        #expect(derived.fields == ["ref": "brand", "darken": "0.2", "space": "srgb"])
        #expect(derived.target.ownerKind == "constant" && derived.target.ownerName == "accentStrong")
        #expect(derived.baseChoices.contains("danger") && !derived.baseChoices.contains("accentStrong"))
        // what follows: brandTint derives from the same base, and so do the colours Base derives
        // from accent (which is brand until the user picks); the send button reads accentStrong;
        // the outgoing bubble reads brand through accent
        let same = try #require(derived.sameBase)
        #expect(same.derived == ["brandPressed", "brandTint", "bubbleOutgoing"], "\(same.derived)")
        #expect(same.instances.contains("button_send") && same.instances.contains("bubble_outgoing"))
        #expect(derived.instances.contains("button_send") && !derived.instances.contains("bubble_outgoing"))
        // a colour that is not derived has none; the bubble's own colour is (a contrast guard)
        let bubble = try await session.explain(themeID: "com.livery.base", traits: "", id: "bubble_incoming")
        let border = try #require(bubble.operations.first { $0.name == "borderColor" })
        #expect(border.type == .color && border.derived == nil)
        let fill = try #require(bubble.operations.first { $0.name == "bubbleColor" && $0.state == "normal" })
        #expect(fill.derived?.baseConstant == "bubbleIncoming")

        // a param derived in its class: edited there, the class's instances follow
        let title = try #require(send.operations.first { $0.name == "titleColor" && $0.state == "normal" })
        let titleDerived = try #require(title.derived)
        #expect(titleDerived.holder == "this param" && titleDerived.alpha == 0.9)
        #expect(titleDerived.target.ownerKind == "class" && titleDerived.target.ownerName == "primaryButton")
        #expect(titleDerived.instances == ["every instance of class primaryButton"])
    }

    @Test func theEditorWritesTheAmountBaseAndSpaceInPlace() async throws {
        let copy = try Self.derivedThemes()
        let session = StudioSession(paths: [copy.themes])
        func derivedBackground() async throws -> StudioDerivation {
            let send = try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
            return try #require(send.operations.first { $0.name == "backgroundColor" && $0.state == "normal" }?.derived)
        }
        let original = try copy.bytes("Base.theme/Constants.xml")
        var result = await session.edit(
            StudioEditRequest(target: try await derivedBackground().target, slot: "darken", text: "0.3"))
        #expect(result.ok, "\(result.message)")
        let edited = try copy.bytes("Base.theme/Constants.xml")
        let run = StudioSessionTests.changedRun(original, edited)
        #expect(run.oldMiddle == "2" && run.newMiddle == "3", "exactly the amount changed: \(run)")
        var now = try await derivedBackground()
        #expect(now.amount == 0.3 && now.result != "#0062CCFF")
        let state = await session.state(themeID: "com.livery.base", traits: nil, findings: false)
        #expect(state.screens.first?.elements.first { $0.id == "button_send" }?.background == now.result)

        result = await session.edit(StudioEditRequest(target: now.target, slot: "ref", text: "danger"))
        #expect(result.ok, "\(result.message)")
        now = try await derivedBackground()
        #expect(now.baseConstant == "danger" && now.base == "#D70015FF")
        result = await session.edit(StudioEditRequest(target: now.target, slot: "space", text: "hsl"))
        #expect(result.ok, "\(result.message)")
        now = try await derivedBackground()
        #expect(now.space == "hsl")
        let text = try String(contentsOfFile: copy.themes + "/Base.theme/Constants.xml", encoding: .utf8)
        #expect(text.contains("<color name=\"accentStrong\" ref=\"danger\" darken=\"0.3\" space=\"hsl\"/>"), "\(text)")

        // a param derived in a class keeps its reference when its alpha is edited
        let send = try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let title = try #require(send.operations.first { $0.name == "titleColor" && $0.state == "normal" }?.derived)
        result = await session.edit(StudioEditRequest(target: title.target, slot: "alpha", text: "0.8"))
        #expect(result.ok, "\(result.message)")
        let classes = try String(contentsOfFile: copy.themes + "/Base.theme/Classes.xml", encoding: .utf8)
        #expect(classes.contains("<color ref=\"onAccent\" alpha=\"0.8\"/>"), "the reference was kept")
    }

    /// A bad amount is refused with the finding `validate` gives for it, at the same place, and
    /// nothing is written.
    @Test func aBadAmountGetsTheFindingValidateGives() async throws {
        let copy = try Self.derivedThemes()
        let session = StudioSession(paths: [copy.themes])
        let send = try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let derived = try #require(
            send.operations.first { $0.name == "backgroundColor" && $0.state == "normal" }?.derived)
        let path = copy.themes + "/Base.theme/Constants.xml"
        let original = try copy.bytes("Base.theme/Constants.xml")
        let result = await session.edit(StudioEditRequest(target: derived.target, slot: "darken", text: "1.5"))
        #expect(!result.ok && result.refusal == "invalid")
        #expect(try copy.bytes("Base.theme/Constants.xml") == original, "a refused amount was written")

        // what validate says of the same text
        let bad = String(decoding: original, as: UTF8.self).replacingOccurrences(
            of: Self.derived, with: Self.derived.replacingOccurrences(of: "0.2", with: "1.5"))
        try bad.write(toFile: path, atomically: true, encoding: .utf8)
        let finding = try #require(
            ThemeWorkspace(searchPaths: [copy.themes]).validate(paths: [copy.themes + "/Base.theme"]).first {
                $0.severity == .error
            })
        let location = try #require(finding.location)
        #expect(finding.message.contains("darken must be a number in 0...1, found '1.5'"), "\(finding.message)")
        let place = "Base.theme/Constants.xml:\(location.line ?? 0):\(location.column ?? 0): "
        #expect(result.message.contains(place + finding.message), "\(result.message) vs \(place)\(finding.message)")
    }
}

/// The derived-colour editor in a real browser: the inspector shows the derivation, the editor
/// says what follows, a bad amount is refused beside the field, a good one is written.
@Suite(.serialized) struct DerivedColorBrowserTests {
    @Test func theDerivedColourEditorWritesTheAmountAndRefusesABadOne() async throws {
        let studio = try RunningStudio()
        try DerivedColorTests.derive(in: studio.copy)
        try await studio.start()
        let browser = try await WebDriver()
        let constants = studio.copy.themes + "/Base.theme/Constants.xml"
        let original = try Data(contentsOf: URL(fileURLWithPath: constants))
        try await browser.open("\(studio.base)/?token=\(studio.token)")
        try await browser.click(try await browser.wait(for: "[data-id=\"button_send\"]"))
        _ = try await browser.wait(for: "#inspector [data-derived=\"backgroundColor|normal\"]")
        let line =
            try await browser.script(
                "return document.querySelector('#inspector [data-derived=\"backgroundColor|normal\"]').textContent")
            as? String ?? ""
        #expect(
            line.contains("constant accentStrong") && line.contains("brand #007AFF \u{2192} darken 0.2 in srgb"),
            "\(line)")
        #expect(line.contains("#0062CC"), "\(line)")
        let before =
            try await browser.script(
                "return getComputedStyle(document.querySelector('.el[data-id=\"button_send\"]')).backgroundColor")
            as? String
        #expect(before == "rgb(0, 98, 204)")

        try await browser.click(try await browser.wait(for: "button[data-edit=\"backgroundColor|normal\"]"))
        _ = try await browser.wait(for: "#editor[data-derived-editor] #edit-follows")
        let follows =
            try await browser.script("return document.getElementById('edit-follows').textContent") as? String ?? ""
        #expect(follows.contains("brandTint") && follows.contains("button_send"), "\(follows)")
        #expect(
            try await browser.script("return document.querySelector('#editor [data-field=\"ref\"]').value") as? String
                == "brand")

        // out of range: refused beside the field, with validate's finding and place
        try await browser.type("1.5", into: try await browser.find("#editor [data-field=\"darken\"]"))
        try await browser.click(try await browser.find("#edit-write"))
        _ = try await browser.wait(for: "#editor #edit-refusal")
        let why =
            try await browser.script("return document.getElementById('edit-refusal').textContent") as? String ?? ""
        #expect(
            why.contains("darken must be a number in 0...1, found '1.5'") && why.contains("Constants.xml:"), "\(why)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: constants)) == original, "a refused amount was written")

        // in range: written, and the drawn button follows
        let generation = try await browser.script("return document.body.dataset.generation") as? String
        try await browser.type("0.3\u{E007}", into: try await browser.find("#editor [data-field=\"darken\"]"))
        for _ in 0..<100 {
            if try await browser.script("return document.body.dataset.generation") as? String != generation { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let text = try String(contentsOfFile: constants, encoding: .utf8)
        #expect(text.contains("<color name=\"accentStrong\" ref=\"brand\" darken=\"0.3\"/>"), "not written")
        for _ in 0..<50 {
            if try await browser.script("return document.body.dataset.settled") as? String == "1" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let after =
            try await browser.script(
                "return getComputedStyle(document.querySelector('.el[data-id=\"button_send\"]')).backgroundColor")
            as? String
        #expect(after != before && after?.hasPrefix("rgb(0, 85, ") == true, "\(after ?? "nothing")")
        await browser.quit()
        await studio.stop()
    }
}
