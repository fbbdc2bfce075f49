import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// Reusing an instance's resolution for another trait set changes nothing: every theme resolves
/// and reports exactly as when each instance is resolved afresh for each. The tree below makes
/// each thing a resolution reads differ between trait sets somewhere.
@Suite struct ResolutionMemoTests {
    static func operation(_ name: String, _ param: String, _ value: String) -> String {
        "<operation name=\"\(name)\"><param name=\"\(param)\">\(value)</param></operation>"
    }

    /// A label's background and text colours, the pair the contrast check measures.
    static func colors(background: String, text: String) -> String {
        operation("backgroundColor", "color", background) + operation("textColor", "color", text)
    }

    /// A parent whose instances read constants through constants, classes through classes, an
    /// operation shared by several instances, and an asset only some trait sets have; children
    /// that each redefine one of those (directly, or only for one trait); one that redefines
    /// nothing; findings that depend on what resolving did (an asset and classes used only there,
    /// a redundant override, a low contrast); and a child with errors that depend on the trait
    /// set (an unknown constant in dark, an asset only in dark).
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
              <uilabel id="k">\(colors(background: "<color>#FFFFFF</color>", text: "<color>#EEEEEE</color>"))</uilabel>
              <uiview id="c">\(tinted)</uiview>
              <uiview id="d">\(alpha)</uiview>
            </instances></theme>
            """,
            "Base.theme/Classes~ipad.xml": """
            <theme><classes><class name="tinted">\(operation("backgroundColor", "color", "<color>#0000FF</color>"))</class></classes></theme>
            """,
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
            // errors (which leave a theme without a value, so they are kept out of the others): an
            // asset only in dark, resolved cleanly there and missing after it (on iPad); an
            // unknown constant only in dark
            "Errors.theme/Info.xml": TemporaryThemes.info("errors", parent: "base"),
            "Errors.theme/Screen.xml": """
            <theme><instances>
              <uiimageview id="e">\(operation("image", "image", "<image>logo</image>"))</uiimageview>
              <uiview id="f">\(operation("alpha", "value", "<float>1</float>"))</uiview>
            </instances></theme>
            """,
            "Errors.theme/Screen~dark.xml": """
            <theme><instances><uiview id="f">\(operation("alpha", "value", "<float ref=\"opacityy\"/>"))</uiview></instances></theme>
            """,
            "Errors.theme/assets/logo~dark.png": "dark",
            // nothing redefined: every instance as the parent's
            "Same.theme/Info.xml": TemporaryThemes.info("same", parent: "base"),
            "Same.theme/Other.xml": TemporaryThemes.alpha("g", "0.25"),
        ])
    }

    static let themes = ["Base", "Brand", "Classy", "Large", "Errors", "Same"]

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
            #expect((expected.value == nil) == (name == "Errors"), "\(name)")
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
    /// contrast found where an instance is resolved afresh (no traits) and where it is reused
    /// (dark), named with both trait sets.
    @Test func aReusedInstanceHasItsContrastChecked() throws {
        let label = Self.colors(background: "<color>#FFFFFF</color>", text: "<color>#EEEEEE</color>")
        let tree = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Screen.xml": "<theme><instances><uilabel id=\"k\">\(label)</uilabel></instances></theme>",
            "Base.theme/Other~dark.xml": TemporaryThemes.alpha("x", "0.5"),
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

    /// Reuse happens: the differential tests above would pass as well if nothing were ever
    /// reused.
    @Test func instancesThatReadTheSameDefinitionsAreReused() throws {
        let tree = try Self.tree()
        let workspace = ThemeWorkspace(searchPaths: [tree.path])
        let resolver = try #require(workspace.resolver(forThemeAt: tree.theme("Same.theme"))).0
        let traitSets = resolver.axes.traitSets
        #expect(traitSets.count == 4)
        for traits in traitSets { _ = resolver.resolve(traits) }
        // g, d and i read nothing dark or ipad changes: resolved once, reused 3 times each
        #expect(resolver.reuses >= 9)
        let afresh = ThemeResolver(chain: resolver.chain, schema: resolver.schema, reusingResolutions: false)
        for traits in traitSets { _ = afresh.resolve(traits) }
        #expect(afresh.reuses == 0)
    }

    /// A resolution that reported something is reused too, and reports again with the reusing
    /// pass's trait set: the finding carries the same note as when every pass resolves afresh.
    /// (A brand's first draft has findings; its instances must not all resolve again.)
    @Test func aResolutionWithFindingsIsReusedAndReportsTheSame() throws {
        let unreachable = Self.operation(
            "backgroundColor", "color", "<color contrast-with=\"#777777\" min-ratio=\"7\">#787878</color>")
        let tree = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Screen.xml": "<theme><instances><uiview id=\"v\">\(unreachable)</uiview></instances></theme>",
            "Base.theme/Other~dark.xml": TemporaryThemes.alpha("x", "0.5"),
            "Base.theme/Other~ipad.xml": TemporaryThemes.alpha("y", "0.5"),
        ])
        var findings: [[Diagnostic]] = []
        for reusing in [false, true] {
            let workspace = ThemeWorkspace(searchPaths: [tree.path])
            workspace.reusesResolutions = reusing
            findings.append(workspace.variants(ofThemeAt: tree.theme("Base.theme")).diagnostics)
        }
        #expect(findings[0].map(\.code) == [.contrastUnreachable])
        #expect(findings[1] == findings[0])
        let workspace = ThemeWorkspace(searchPaths: [tree.path])
        let resolver = try #require(workspace.resolver(forThemeAt: tree.theme("Base.theme"))).0
        for traits in resolver.axes.traitSets { _ = resolver.resolve(traits) }
        // v is resolved once and reused for the three other trait sets, reporting each time
        #expect(resolver.reuses >= 3)
        #expect(resolver.traitSets.values.contains { $0.count == 4 })
    }

    /// A constant overridable only for some trait sets (an iPad layer marks it, a child's
    /// redefinition keeps the mark there): the same definitions read, but a personal choice
    /// only on iPad, with its use recorded and its text's missing guard reported there alone.
    @Test func aResolutionIsReusedOnlyWhereTheSameConstantsAreOverridable() throws {
        let label = Self.colors(background: "<color ref=\"paper\"/>", text: "<color ref=\"ink\"/>")
        let tree = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Constants.xml":
                "<theme><constants><color name=\"ink\">#111111</color><color name=\"paper\">#FFFFFF</color></constants></theme>",
            "Base.theme/Constants~ipad.xml":
                "<theme><constants><color name=\"ink\" overridable=\"true\">#111111</color></constants></theme>",
            "Base.theme/Screen.xml": "<theme><instances><uilabel id=\"k\">\(label)</uilabel></instances></theme>",
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Brand.xml": "<theme><constants><color name=\"ink\">#222222</color></constants></theme>",
        ])
        var results: [Checked<ThemeVariants>] = []
        for reusing in [false, true] {
            let workspace = ThemeWorkspace(searchPaths: [tree.path])
            workspace.reusesResolutions = reusing
            results.append(workspace.variants(ofThemeAt: tree.theme("Child.theme")))
        }
        let afresh = try #require(results[0].value)
        let ipad = try TraitSet(tags: ["ipad"])
        #expect(afresh.choices.uses[ipad]?.map(\.id) == ["k"])
        #expect(afresh.choices.uses[TraitSet()] == nil)
        let unguarded = results[0].diagnostics.filter { $0.code == .contrastUnguarded }
        #expect(unguarded.count == 1)
        #expect(unguarded.first?.notes.map(\.message) == ["only with ipad"])
        #expect(results[1].value == afresh)
        #expect(results[1].diagnostics == results[0].diagnostics)
    }

    /// A chain with more qualifier sets than `ChainLayers` has bits (70 files, each with its own
    /// qualifiers and its own `ink`, the last six with their own `paper`): a resolution is reused
    /// only where the same files apply, so every trait set still sees its own file's values, as
    /// when nothing is reused.
    @Test func aChainWithMoreQualifierSetsThanBitsResolvesAsWithoutReuse() throws {
        var files = [
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Constants.xml":
                "<theme><constants><color name=\"ink\">#000000</color><color name=\"paper\">#FFFFFF</color></constants></theme>",
            "Base.theme/Screen.xml":
                "<theme><instances><uilabel id=\"k\">\(Self.colors(background: "<color ref=\"paper\"/>", text: "<color ref=\"ink\"/>"))</uilabel><uiview id=\"v\">\(Self.operation("backgroundColor", "color", "<color ref=\"paper\"/>"))</uiview></instances></theme>",
        ]
        var qualifiers: [String] = []
        for idiom in ["iphone", "ipad", "tv", "mac", "watch", "car", "vision"] {
            for appearance in ["", "~light", "~dark"] {
                for contrast in ["", "~highcontrast"] {
                    for direction in ["", "~ltr", "~rtl"] {
                        qualifiers.append("~\(idiom)\(appearance)\(contrast)\(direction)")
                    }
                }
            }
        }
        for (index, qualifier) in qualifiers.prefix(70).enumerated() {
            let shade = String(format: "#%02X%02X%02X", index + 1, index + 1, index + 1)
            // past the 64th, paper too: a bit shared with an earlier file would reuse the wrong one
            let paper = index >= 64 ? "<color name=\"paper\">\(String(format: "#FFFF%02X", index))</color>" : ""
            files["Base.theme/Ink\(qualifier).xml"] =
                "<theme><constants><color name=\"ink\">\(shade)</color>\(paper)</constants></theme>"
        }
        let tree = try TemporaryThemes(files)
        var results: [Checked<ThemeVariants>] = []
        for reusing in [false, true] {
            let workspace = ThemeWorkspace(searchPaths: [tree.path])
            workspace.reusesResolutions = reusing
            results.append(workspace.variants(ofThemeAt: tree.theme("Base.theme")))
            let resolver = try #require(workspace.resolver(forThemeAt: tree.theme("Base.theme"))).0
            #expect(!resolver.layers.exact)
        }
        let afresh = try #require(results[0].value)
        #expect(Set(afresh.variants.values.flatMap { $0.filter { $0.id == "k" } }).count == 71)
        #expect(Set(afresh.variants.values.flatMap { $0.filter { $0.id == "v" } }).count == 7)
        #expect(results[1].value == afresh)
        #expect(results[1].diagnostics == results[0].diagnostics)
    }

    /// A workspace that does not collect personal choices (the `validate` command's) reports
    /// exactly what one that does reports, and its variants have no personal choices.
    @Test func validatingWithoutPersonalChoicesReportsTheSame() throws {
        let tree = try Self.tree()
        let paths = [tree.path, Fixture.packageRoot + "/Themes"]
        let collecting = ThemeWorkspace()
        let expected = collecting.validate(paths: paths)
        let validating = ThemeWorkspace()
        validating.collectsChoices = false
        #expect(
            WorkspaceSharingTests.rendered(validating.validate(paths: paths))
                == WorkspaceSharingTests.rendered(expected))
        let base = Fixture.packageRoot + "/Themes/Base.theme"
        #expect(try #require(collecting.variants(ofThemeAt: base).value).choices.uses.isEmpty == false)
        #expect(try #require(validating.variants(ofThemeAt: base).value).choices == ChoiceTable())
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
