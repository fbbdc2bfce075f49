import Foundation
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryTooling

/// `diff` and derived colours (format 1.3, section 9.1): a changed base or amount names the
/// derived colours that change, with their derivation before and after, and the instances.
@Suite struct DerivedColorDiffTests {
    static func themes(old: String, new: String) throws -> Scratch {
        func file(_ constants: String) -> String {
            """
            <theme><constants>\(constants)</constants><instances>
            <uibutton id="send"><operation name="backgroundColor"><param name="color"><color ref="pressed"/></param></operation></uibutton>
            <uilabel id="note"><operation name="textColor"><param name="color"><color ref="ink"/></param></operation></uilabel>
            </instances></theme>
            """
        }
        return try Scratch([
            "Old.theme/Info.xml": Scratch.info("app"), "Old.theme/A.xml": file(old),
            "New.theme/Info.xml": Scratch.info("app"), "New.theme/A.xml": file(new),
        ])
    }

    static func diff(_ scratch: Scratch) throws -> ThemeDiff {
        let workspace = ThemeWorkspace()
        let old = try ThemeSource.variants(at: scratch("Old.theme"), workspace: workspace).unwrap()
        let new = try ThemeSource.variants(at: scratch("New.theme"), workspace: workspace).unwrap()
        var diff = ThemeDiff.compare(old, new)
        let before = try #require(
            ThemeDiff.constants(ofThemeAt: scratch("Old.theme"), traitSets: diff.traitSets, workspace: workspace))
        let after = try #require(
            ThemeDiff.constants(ofThemeAt: scratch("New.theme"), traitSets: diff.traitSets, workspace: workspace))
        diff.addDerivedColors(old: before, new: after)
        return diff
    }

    static let ink = #"<color name="ink">#111111</color>"#

    @Test func aChangedAmountNamesTheDerivedColourAndTheInstances() throws {
        let scratch = try Self.themes(
            old: #"<color name="brand">#007AFF</color><color name="pressed" ref="brand" darken="0.2"/>"# + Self.ink,
            new: #"<color name="brand">#007AFF</color><color name="pressed" ref="brand" darken="0.3"/>"# + Self.ink)
        let diff = try Self.diff(scratch)
        let lines = diff.text(oldLabel: "Old.theme", newLabel: "New.theme").split(separator: "\n").map(String.init)
        #expect(lines.contains("~ pressed (derived colour): #0062CCFF -> #0055B3FF  [(no traits)]"), "\(lines)")
        #expect(lines.contains("    was `pressed` = `brand` #007AFF darkened 0.2 in srgb = #0062CC"), "\(lines)")
        #expect(lines.contains("    now `pressed` = `brand` #007AFF darkened 0.3 in srgb = #0055B3"), "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("~ send.backgroundColor: color #0062CCFF -> color #0055B3FF") }, "\(lines)")
        #expect(!lines.contains { $0.contains("note") }, "an instance that does not read it is not listed")
        #expect(diff.summary == "2 changes: 1 operation changed, 1 derived colour changed")
        let json = diff.json().rendered(pretty: false)
        #expect(json.contains(#""kind":"derived-color-changed""#) && json.contains(#""constant":"pressed""#))
    }

    @Test func aChangedBaseNamesEveryColourDerivedFromIt() throws {
        let derived =
            #"<color name="pressed" ref="brand" darken="0.2"/><color name="tint" ref="brand" lighten="0.8"/>"#
            + Self.ink
        let scratch = try Self.themes(
            old: #"<color name="brand">#007AFF</color>"# + derived,
            new: #"<color name="brand">#FF3B30</color>"# + derived)
        let diff = try Self.diff(scratch)
        let names = diff.changes.compactMap(\.constant?.name)
        #expect(names == ["pressed", "tint"], "\(names)")
        let text = diff.text(oldLabel: "Old.theme", newLabel: "New.theme")
        #expect(text.contains("now `pressed` = `brand` #FF3B30 darkened 0.2 in srgb = #CC2F26"), "\(text)")
        // the same themes: nothing
        let same = try Self.themes(
            old: #"<color name="brand">#007AFF</color>"# + derived,
            new: #"<color name="brand">#007AFF</color>"# + derived)
        #expect(try Self.diff(same).isEmpty)
    }
}
