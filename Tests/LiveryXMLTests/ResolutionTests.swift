import LiveryModel
import Testing

@testable import LiveryXML

@Suite struct ResolutionTests {
    let workspace = ThemeWorkspace()

    func operations(_ theme: ResolvedTheme, _ id: String) -> [String] {
        theme.instance(id)?.operations.map { "\($0.name)/\($0.state)" } ?? []
    }

    @Test func childConstantsRecolourInheritedInstances() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Constants.xml":
                #"<theme><constants><color name="brand">#FF0000</color><color name="accent" ref="brand"/></constants></theme>"#,
            "Base.theme/Views.xml":
                #"<theme><instances><uiview id="v"><operation name="backgroundColor"><param name="color"><color ref="accent"/></param></operation></uiview></instances></theme>"#,
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Palette.xml": #"<theme><constants><color name="brand">#00FF00</color></constants></theme>"#,
        ])
        let base = try workspace.resolve(themeAt: themes.theme("Base.theme"), traits: .none).unwrap()
        let child = try workspace.resolve(themeAt: themes.theme("Child.theme"), traits: .none).unwrap()
        #expect(base.instance("v")?.operations.first?.param("color") == .color(Color(red: 1, green: 0, blue: 0)))
        // late binding: accent -> brand resolves against the child's final table
        #expect(child.instance("v")?.operations.first?.param("color") == .color(Color(red: 0, green: 1, blue: 0)))
        #expect(child.info.parent == "base")
    }

    @Test func layersApplyInSpecificityOrder() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/A.xml": TemporaryThemes.alpha("v", "0.1"),
            "T.theme/A~dark.xml": TemporaryThemes.alpha("v", "0.2"),
            "T.theme/A~dark~highcontrast.xml": TemporaryThemes.alpha("v", "0.3"),
            "T.theme/A~ipad.xml": TemporaryThemes.alpha("v", "0.4"),
            "T.theme/A~iPad~Dark.xml": TemporaryThemes.alpha("v", "0.5"),
            "T.theme/B.xml": TemporaryThemes.alpha("w", "0.6"),
            "T.theme/A~tv.xml": TemporaryThemes.alpha("w", "0.7"),
        ])
        func alpha(_ id: String, _ tags: [String]) throws -> Value? {
            let theme = try workspace.resolve(themeAt: themes.theme("T.theme"), traits: TraitSet(tags: tags)).unwrap()
            return theme.instance(id)?.operations.first?.param("value")
        }
        #expect(try alpha("v", []) == .float(0.1))
        #expect(try alpha("v", ["dark"]) == .float(0.2))
        #expect(try alpha("v", ["dark", "highcontrast"]) == .float(0.3))
        #expect(try alpha("v", ["ipad", "highcontrast"]) == .float(0.4))
        #expect(try alpha("v", ["ipad", "dark", "highcontrast"]) == .float(0.5))
        #expect(try alpha("v", ["iphone", "light"]) == .float(0.1))
        // same specificity: file name decides (A~tv.xml has idiom, so it comes after B.xml)
        #expect(try alpha("w", ["tv"]) == .float(0.7))
        #expect(try alpha("w", []) == .float(0.6))
    }

    @Test func laterIdentityRemovesEarlierAndKeepsLastPosition() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/A.xml": """
            <theme>
              <classes>
                <class name="rounded">
                  <operation name="cornerRadius"><param name="radius"><float>4</float></param></operation>
                  <operation name="borderWidth"><param name="width"><float>1</float></param></operation>
                </class>
              </classes>
              <instances>
                <uibutton id="b" class="rounded">
                  <operation name="backgroundColor"><param name="color"><color>#000</color></param></operation>
                  <operation name="cornerRadius"><param name="radius"><float>9</float></param></operation>
                  <operation name="titleColor"><param name="color"><color>#111</color></param></operation>
                  <operation name="titleColor" state="highlighted"><param name="color"><color>#222</color></param></operation>
                </uibutton>
              </instances>
            </theme>
            """,
        ])
        let theme = try workspace.resolve(themeAt: themes.theme("T.theme"), traits: .none).unwrap()
        #expect(
            operations(theme, "b") == [
                "borderWidth/normal", "backgroundColor/normal", "cornerRadius/normal",
                "titleColor/normal", "titleColor/highlighted",
            ])
        #expect(theme.instance("b")?.operations[2].param("radius") == .float(9))
    }

    @Test func classesComposeAndBindLate() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/A.xml": """
            <theme>
              <classes>
                <class name="rounded"><operation name="cornerRadius"><param name="radius"><float>4</float></param></operation></class>
                <class name="card" class="rounded"><operation name="alpha"><param name="value"><float>0.9</float></param></operation></class>
              </classes>
              <instances><uiview id="v" class="card"/></instances>
            </theme>
            """,
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/A.xml": """
            <theme><classes>
              <class name="rounded"><operation name="cornerRadius"><param name="radius"><float>12</float></param></operation></class>
            </classes></theme>
            """,
        ])
        let base = try workspace.resolve(themeAt: themes.theme("Base.theme"), traits: .none).unwrap()
        #expect(operations(base, "v") == ["cornerRadius/normal", "alpha/normal"])
        let child = try workspace.resolve(themeAt: themes.theme("Child.theme"), traits: .none).unwrap()
        #expect(child.instance("v")?.operations.first?.param("radius") == .float(12))
    }

    @Test func instancesExistOnlyWhereALayerDefinesThem() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/A.xml": TemporaryThemes.alpha("everywhere", "1"),
            "T.theme/A~ipad.xml": TemporaryThemes.alpha("ipad_only", "1"),
        ])
        let phone = try workspace.resolve(themeAt: themes.theme("T.theme"), traits: TraitSet(idiom: .iphone)).unwrap()
        let pad = try workspace.resolve(themeAt: themes.theme("T.theme"), traits: TraitSet(idiom: .ipad)).unwrap()
        #expect(phone.instances.map(\.id) == ["everywhere"])
        #expect(pad.instances.map(\.id) == ["everywhere", "ipad_only"])
    }

    @Test func assetsComeFromTheNearestThemeWithTheBestVariant() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/A.xml": """
            <theme><instances>
              <uiimageview id="a"><operation name="image"><param name="image"><image>bubble</image></param></operation></uiimageview>
              <uiimageview id="b"><operation name="image"><param name="image"><image cache="true">icon</image></param></operation></uiimageview>
            </instances></theme>
            """,
            "Base.theme/assets/bubble.png": "1x",
            "Base.theme/assets/bubble@3x.png": "3x",
            "Base.theme/assets/bubble@2x~ipad.png": "ipad 2x",
            "Base.theme/assets/icon@2x.png": "icon",
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/assets/icon.png": "child icon",
        ])
        func file(_ theme: String, _ id: String, _ tags: [String], scale: Int) throws -> String {
            let resolved = try workspace.resolve(themeAt: themes.theme(theme), traits: TraitSet(tags: tags)).unwrap()
            let json = CanonicalJSON.document(resolved, scale: scale).rendered(pretty: false)
            guard case .image(let image)? = resolved.instance(id)?.operations.first?.param("image"),
                let variant = resolved.assets.select(image.name, traits: resolved.traits, scale: scale)
            else { return "none" }
            #expect(json.contains("\"file\":\"\(variant.file)\""))
            return "\(variant.themeID):\(variant.file)"
        }
        #expect(try file("Base.theme", "a", [], scale: 1) == "base:assets/bubble.png")
        #expect(try file("Base.theme", "a", [], scale: 2) == "base:assets/bubble@3x.png")
        #expect(try file("Base.theme", "a", [], scale: 3) == "base:assets/bubble@3x.png")
        #expect(try file("Base.theme", "a", ["ipad"], scale: 3) == "base:assets/bubble@2x~ipad.png")
        // the child has a variant of icon (at 1x), so it wins over the parent's better scale
        #expect(try file("Child.theme", "b", [], scale: 2) == "child:assets/icon.png")
        #expect(try file("Child.theme", "a", [], scale: 1) == "base:assets/bubble.png")
    }

    @Test func variantsAgreeWithDirectResolutionForEveryTraitSet() throws {
        for theme in ["Base", "Light", "Dark", "HighContrast"] {
            let path = SampleThemes.path + "/\(theme).theme"
            let variants = try workspace.variants(ofThemeAt: path).unwrap()
            for traits in TraitAxes.all.traitSets {
                let direct = try workspace.resolve(themeAt: path, traits: traits).unwrap()
                for scale in 1...3 {
                    #expect(
                        CanonicalJSON.dump(variants.resolved(for: traits), scale: scale)
                            == CanonicalJSON.dump(direct, scale: scale),
                        "\(theme) \(traits) @\(scale)x")
                }
            }
        }
    }

    @Test func customSchemaFilesAddComponents() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/A.xml": """
            <theme><instances><gauge id="g"><operation name="needle" state="selected"><param name="style"><enum>thin</enum></param></operation></gauge></instances></theme>
            """,
            "schema.xml": """
            <components><component name="gauge" extends="uiview">
              <operation name="needle" states="true"><param name="style" type="enum" values="thin thick"/></operation>
            </component></components>
            """,
        ])
        let without = workspace.validate(paths: [themes.theme("T.theme")])
        #expect(without.contains { $0.code == .componentUnknown })
        let with = ThemeWorkspace(schemaFiles: [themes.path + "/schema.xml"])
        #expect(with.validate(paths: [themes.theme("T.theme")]).isEmpty)
        let theme = try with.resolve(themeAt: themes.theme("T.theme"), traits: .none).unwrap()
        #expect(
            theme.instance("g")?.operations.first
                == ResolvedOperation(
                    name: "needle", state: "selected",
                    params: [Param(name: "style", value: .enumeration("thin"))]))
    }

    @Test func findingsAreCollectedNotStoppedAtTheFirst() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/A.xml": """
            <theme>
              <constants><color name="brand">#F00</color><float name="a" ref="b"/><float name="b" ref="a"/></constants>
              <instances>
                <uibutton id="x">
                  <operation name="backgroundColour"><param name="color"><color>#000</color></param></operation>
                  <operation name="alpha"><param name="value"><float ref="brand"/></param></operation>
                  <operation name="cornerRadius"><param name="radius"><float>1,5</float></param></operation>
                  <operation name="backgroundColor" state="highlighted"><param name="color"><color>#000</color></param></operation>
                  <operation name="title"><param name="txt"><string>a</string></param></operation>
                  <operation name="titleFont"/>
                </uibutton>
                <uilabel id="y"><operation name="textAlignment"><param name="alignment"><enum>middle</enum></param></operation></uilabel>
              </instances>
            </theme>
            """,
        ])
        let diagnostics = workspace.validate(paths: [themes.theme("T.theme")])
        let codes = Set(diagnostics.map(\.code))
        #expect(
            codes.isSuperset(of: [
                .referenceCycle, .operationUnknown, .referenceType, .valueInvalid, .stateNotAllowed,
                .paramUnknown, .paramMissing, .enumValue,
            ]))
        #expect(diagnostics.allSatisfy { $0.location?.line != nil })
        let unknown = try #require(diagnostics.first { $0.code == .operationUnknown })
        #expect(unknown.message == "unknown operation 'backgroundColour' for uibutton; did you mean 'backgroundColor'?")
        #expect(diagnostics.contains { $0.message == "constant 'brand' is a color but is used as a float" })
        // a misspelled param is reported once, as unknown with a suggestion, not also as missing
        #expect(diagnostics.contains { $0.message == "operation 'title' has no param 'txt'; did you mean 'text'?" })
        #expect(!diagnostics.contains { $0.code == .paramMissing && $0.message.contains("'title'") })
    }

    @Test func parentProblemsNameWhatToDo() throws {
        let themes = try TemporaryThemes([
            "A.theme/Info.xml": TemporaryThemes.info("a", parent: "b"),
            "B.theme/Info.xml": TemporaryThemes.info("b", parent: "a"),
            "Orphan.theme/Info.xml": TemporaryThemes.info("orphan", parent: "com.acme.base"),
        ])
        let diagnostics = workspace.validate(paths: [themes.path])
        #expect(diagnostics.contains { $0.code == .parentCycle && $0.location?.column != nil })
        let missing = try #require(diagnostics.first { $0.code == .parentMissing })
        #expect(missing.message.hasPrefix("parent theme 'com.acme.base' not found in: \(themes.path)/"))
        #expect(missing.location?.file == themes.path + "/Orphan.theme/Info.xml")
    }

    @Test func warnsAboutUnusedAndRedundantDefinitions() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/A.xml": """
            <theme>
              <constants><float name="unused">1</float><float name="half">0.5</float></constants>
              <classes><class name="lonely"/><class name="dim"><operation name="alpha"><param name="value"><float ref="half"/></param></operation></class></classes>
              <instances><uiview id="v" class="dim"><operation name="alpha"><param name="value"><float>0.5</float></param></operation></uiview></instances>
            </theme>
            """,
            "T.theme/assets/orphan.png": "x",
        ])
        let diagnostics = workspace.validate(paths: [themes.theme("T.theme")])
        #expect(!diagnostics.hasErrors)
        #expect(Set(diagnostics.map(\.code)) == [.constantUnused, .classUnused, .overrideRedundant, .assetUnused])
    }

    /// A misspelled reference in a definition no trait set resolves (a class a later file
    /// redefines) still means the constant spelled nearest: it is not reported unused, and a
    /// constant no misspelling is near is.
    @Test func aMisspelledReferenceInAnOverriddenClassMeansTheNearestConstant() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/A.xml": """
            <theme>
              <constants><float name="fade">0.5</float><float name="lonely">1</float><float name="dim">0.4</float></constants>
              <classes><class name="outer"><operation name="alpha"><param name="value"><float ref="fdae"/></param></operation></class></classes>
            </theme>
            """,
            "T.theme/B.xml": """
            <theme>
              <classes><class name="outer"><operation name="alpha"><param name="value"><float ref="dim"/></param></operation></class></classes>
              <instances><uiview id="v" class="outer"/></instances>
            </theme>
            """,
        ])
        let diagnostics = workspace.validate(paths: [themes.theme("T.theme")])
        #expect(!diagnostics.hasErrors, "\(diagnostics)")
        let unused = diagnostics.filter { $0.code == .constantUnused || $0.code == .classUnused }.map(\.message)
        #expect(unused.count == 1, "\(unused)")
        #expect(unused.first?.contains("'lonely'") == true, "\(unused)")
    }
}

enum SampleThemes {
    /// The repository's `Themes/` folder, found from this file's place in `Tests/`.
    static let path: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/Themes"
    }()
}
