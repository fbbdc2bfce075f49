import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// Reusing an instance's resolution (for another trait set, in another child of the same
/// schema) changes nothing: every theme resolves and reports exactly as when each instance is
/// resolved afresh. The tree below makes each thing a resolution reads differ somewhere.
@Suite struct ResolutionMemoTests {
    static func operation(_ name: String, _ param: String, _ value: String) -> String {
        "<operation name=\"\(name)\"><param name=\"\(param)\">\(value)</param></operation>"
    }

    /// A parent whose instances read constants through constants, classes through classes, an
    /// operation shared by several instances, and an asset only some trait sets have; children
    /// that each redefine one of those (directly, or only for one trait); one that redefines
    /// nothing; and findings that depend on what resolving did (an asset and classes used only
    /// there, a redundant override, a low contrast) or on the trait set (an unknown constant in
    /// dark, an asset only on iPad).
    static func tree() throws -> TemporaryThemes {
        let tinted = operation("backgroundColor", "color", "<color ref=\"accent\"/>")
        let alpha = operation("alpha", "value", "<float ref=\"opacity\"/>")
        let text = operation("textColor", "color", "<color ref=\"ink\"/>")
        return try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Constants.xml": """
            <theme><constants>
              <color name="brand">#112233</color>
              <color name="accent" ref="brand"/>
              <color name="ink">#FFFFFF</color>
              <float name="opacity">0.5</float>
            </constants></theme>
            """,
            "Base.theme/Constants~dark.xml": """
            <theme><constants><color name="brand">#000000</color><color name="ink">#F0F0F0</color></constants></theme>
            """,
            "Base.theme/Classes.xml": """
            <theme><classes>
              <class name="tinted">\(tinted)</class>
              <class name="card" class="tinted">\(alpha)</class>
            </classes></theme>
            """,
            "Base.theme/Screen.xml": """
            <theme><instances>
              <uilabel id="a" class="card">\(text)</uilabel>
              <uilabel id="b" class="tinted">\(text)</uilabel>
              <uilabel id="h" class="card"/>
              <uiimageview id="i">\(operation("image", "image", "<image>icon</image>"))</uiimageview>
              <uilabel id="j" class="tinted">\(tinted)</uilabel>
              <uilabel id="k">\(operation("backgroundColor", "color", "<color>#FFFFFF</color>"))\(operation("textColor", "color", "<color>#EEEEEE</color>"))</uilabel>
              <uiview id="c">\(tinted)</uiview>
              <uiview id="d">\(alpha)</uiview>
              <uiimageview id="e">\(operation("image", "image", "<image>logo</image>"))</uiimageview>
              <uiview id="f">\(operation("alpha", "value", "<float>1</float>"))</uiview>
            </instances></theme>
            """,
            "Base.theme/Screen~dark.xml": """
            <theme><instances><uiview id="f">\(operation("alpha", "value", "<float ref=\"opacityy\"/>"))</uiview></instances></theme>
            """,
            "Base.theme/assets/logo~ipad.png": "ipad",
            "Base.theme/assets/icon.png": "1x",
            // the brand only: read by a, b and c through accent
            "Brand.theme/Info.xml": TemporaryThemes.info("brand", parent: "base"),
            "Brand.theme/Brand.xml": "<theme><constants><color name=\"brand\">#FF0000</color></constants></theme>",
            // a class redefined: a (through card) and b change, c does not
            "Classy.theme/Info.xml": TemporaryThemes.info("classy", parent: "base"),
            "Classy.theme/Classes.xml": """
            <theme><classes><class name="tinted">\(operation("backgroundColor", "color", "<color>#00FF00</color>"))</class></classes></theme>
            """,
            // only on large text: a and d change there
            "Large.theme/Info.xml": TemporaryThemes.info("large", parent: "base"),
            "Large.theme/Opacity~largetext.xml":
                "<theme><constants><float name=\"opacity\">0.9</float></constants></theme>",
            // the asset for every trait set: e resolves everywhere
            "Logo.theme/Info.xml": TemporaryThemes.info("logo", parent: "base"),
            "Logo.theme/assets/logo.png": "1x",
            // nothing redefined: every instance as the parent's
            "Same.theme/Info.xml": TemporaryThemes.info("same", parent: "base"),
            "Same.theme/Other.xml": TemporaryThemes.alpha("g", "0.25"),
        ])
    }

    static let themes = ["Base", "Brand", "Classy", "Large", "Logo", "Same"]

    /// Every theme's variants and findings, resolved in one workspace in this order.
    static func results(of tree: TemporaryThemes, reusing: Bool, order: [String]) -> [String: Checked<ThemeVariants>] {
        let workspace = ThemeWorkspace(searchPaths: [tree.path])
        workspace.reusesResolutions = reusing
        var results: [String: Checked<ThemeVariants>] = [:]
        for name in order { results[name] = workspace.variants(ofThemeAt: tree.theme(name + ".theme")) }
        return results
    }

    @Test(arguments: [themes, themes.reversed()])
    func reusingResolvesAndReportsAsResolvingAfresh(order: [String]) throws {
        let tree = try Self.tree()
        let afresh = Self.results(of: tree, reusing: false, order: order)
        let reused = Self.results(of: tree, reusing: true, order: order)
        for name in Self.themes {
            let expected = try #require(afresh[name]), actual = try #require(reused[name])
            #expect(actual.value == expected.value, "\(name)")
            #expect(actual.diagnostics == expected.diagnostics, "\(name)")
        }
    }

    @Test func validateReportsAsWithoutReuse() throws {
        let tree = try Self.tree()
        let fixtures = ["Invalid", "Warnings", "Resolver"].map { Fixture.root + "/" + $0 }
        let paths = [tree.path, Fixture.packageRoot + "/Themes"] + fixtures
        let afresh = ThemeWorkspace()
        afresh.reusesResolutions = false
        let expected = afresh.validate(paths: paths)
        #expect(expected.contains { $0.code == .referenceUnknown })
        #expect(expected.contains { $0.code == .assetMissing })
        for jobs in [1, 2] {
            #expect(
                WorkspaceSharingTests.rendered(ThemeWorkspace().validate(paths: paths, jobs: jobs))
                    == WorkspaceSharingTests.rendered(expected), "jobs \(jobs)")
        }
    }

    /// A theme with errors has its contrast findings dropped, so this tree has none: a low
    /// contrast found where an instance is resolved afresh and where it is reused.
    @Test func aReusedInstanceHasItsContrastChecked() throws {
        let label =
            Self.operation("backgroundColor", "color", "<color>#FFFFFF</color>")
            + Self.operation("textColor", "color", "<color>#EEEEEE</color>")
        let tree = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Screen.xml": "<theme><instances><uilabel id=\"k\">\(label)</uilabel></instances></theme>",
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Other.xml": TemporaryThemes.alpha("g", "0.25"),
        ])
        for order in [["Base", "Child"], ["Child", "Base"]] {
            var findings: [[Diagnostic]] = []
            for reusing in [false, true] {
                let workspace = ThemeWorkspace(searchPaths: [tree.path])
                workspace.reusesResolutions = reusing
                findings.append(order.flatMap { workspace.variants(ofThemeAt: tree.theme($0 + ".theme")).diagnostics })
            }
            #expect(findings[0].filter { $0.code == .contrastLow }.count == 2)
            #expect(findings[1] == findings[0], "\(order)")
        }
    }

    /// One file of a `uiview` for each id.
    static func views(_ ids: [String]) -> String {
        let views = ids.map { "<uiview id=\"\($0)\">\(operation("alpha", "value", "<float>0.1</float>"))</uiview>" }
        return "<theme><instances>\(views.joined())</instances></theme>"
    }

    /// A memo shared by many themes keeps at most its capacity (what a build of thousands of
    /// themes holds), and room for every variant of the largest chain it resolves.
    @Test func theMemoKeepsAtMostItsCapacity() throws {
        var files = [
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Screen.xml": TemporaryThemes.alpha("a", "0.5"),
        ]
        for index in 0..<40 {
            files["C\(index).theme/Info.xml"] = TemporaryThemes.info("c\(index)", parent: "base")
            files["C\(index).theme/Own.xml"] = Self.views((0..<100).map { "own\(index)_\($0)" })
        }
        let tree = try TemporaryThemes(files)
        let workspace = ThemeWorkspace(searchPaths: [tree.path])
        let memo = ResolutionMemo()
        for index in 0..<40 {
            let chain = try #require(workspace.resolver(forThemeAt: tree.theme("C\(index).theme"))).0.chain
            let resolver = ThemeResolver(chain: chain, schema: StandardSchema.schema, memo: memo)
            #expect(resolver.resolve(TraitSet()).count == 101)
            #expect(memo.count <= memo.capacity)
        }
        // 40 children of 101 instances each, one entry each: more than the capacity
        #expect(memo.capacity == 1024)
        #expect(memo.count > 0)
        let big = try TemporaryThemes([
            "Big.theme/Info.xml": TemporaryThemes.info("big"),
            "Big.theme/Screen.xml": Self.views((0..<1000).map { "i\($0)" }),
        ])
        let chain = try #require(workspace.resolver(forThemeAt: big.theme("Big.theme"))).0.chain
        _ = ThemeResolver(chain: chain, schema: StandardSchema.schema, memo: memo)
        #expect(memo.capacity == 8000)
    }

    @Test func forgettingAThemeDropsTheResolutionsKept() throws {
        let tree = try Self.tree()
        let workspace = ThemeWorkspace(searchPaths: [tree.path])
        _ = workspace.validate(paths: [tree.path])
        let memo = try #require(workspace.resolver(forThemeAt: tree.theme("Same.theme"))).0.memo
        #expect(memo.count > 0)
        workspace.forget(themeAt: tree.theme("Same.theme"))
        #expect(memo.count == 0)
    }

    /// The values the tree is built to change, checked directly: a memo that missed one kind of
    /// read would hand a child its parent's value.
    @Test func childrenSeeWhatTheyRedefineThroughEveryPath() throws {
        let tree = try Self.tree()
        let workspace = ThemeWorkspace(searchPaths: [tree.path])
        func color(_ theme: String, _ id: String, _ traits: TraitSet = TraitSet()) throws -> Color? {
            let resolved = try workspace.resolve(
                themeAt: tree.theme(theme + ".theme"), traits: traits, keepingWhatResolves: true
            ).unwrap()
            let instance = try #require(resolved.instances.first { $0.id == id })
            guard
                case .color(let value)? = instance.operations.first(where: { $0.name == "backgroundColor" })?
                    .params.first?.value
            else { return nil }
            return value
        }
        func alpha(_ theme: String, _ id: String, _ traits: TraitSet) throws -> Double? {
            let resolved = try workspace.resolve(
                themeAt: tree.theme(theme + ".theme"), traits: traits, keepingWhatResolves: true
            ).unwrap()
            let instance = try #require(resolved.instances.first { $0.id == id })
            guard
                case .float(let value)? = instance.operations.first(where: { $0.name == "alpha" })?.params.first?.value
            else { return nil }
            return value
        }
        let base = try ["a", "b", "c", "h"].map { try color("Base", $0) }
        #expect(Set(base).count == 1)
        // through accent, a constant that is not redefined; for a and b through classes
        for id in ["a", "b", "c"] { #expect(try color("Brand", id) != base[0], "\(id)") }
        // a class redefined, and one reached through another class (twice: the second time
        // the class is resolved already)
        #expect(try color("Classy", "a") != base[0])
        #expect(try color("Classy", "b") != base[0])
        #expect(try color("Classy", "h") != base[0])
        #expect(try color("Classy", "c") == base[0])
        // a trait set of the child only
        let large = try TraitSet(tags: ["largetext"])
        #expect(try alpha("Large", "d", TraitSet()) == 0.5)
        #expect(try alpha("Large", "d", large) == 0.9)
        #expect(try alpha("Large", "a", large) == 0.9)
        // the parent's dark values in a child that redefines nothing
        #expect(try color("Same", "c", try TraitSet(tags: ["dark"])) != base[0])
    }
}
