import LiveryModel
import LiveryTooling
import LiveryXML
import Testing

@Suite struct ProvenanceTests {
    /// explain re-walks definitions beside the resolver: it must give exactly the operations
    /// resolution gives, for every instance of every sample theme in every trait set.
    @Test(arguments: ["Base", "Light", "Dark", "HighContrast"])
    func agreesWithResolutionEverywhere(_ name: String) throws {
        let workspace = ThemeWorkspace()
        let variants = try workspace.variants(ofThemeAt: Samples.theme(name)).unwrap()
        for traits in variants.axes.traitSets {
            let theme = variants.resolved(for: traits)
            for instance in theme.instances {
                let explanation = try workspace.explain(
                    themeAt: Samples.theme(name), identifier: instance.id, traits: traits
                ).unwrap()
                #expect(
                    explanation.operations.map(\.operation) == instance.operations, "\(name) \(traits) \(instance.id)")
                #expect(explanation.component == instance.component)
                // an editor's hover resolves the instance alone: the same explanation
                let alone = workspace.explain(
                    themeAt: Samples.theme(name), identifier: instance.id, traits: traits, checkingWholeTheme: false)
                #expect(alone.value == explanation, "\(name) \(traits) \(instance.id)")
            }
            let constants = workspace.constants(ofThemeAt: Samples.theme(name), traits: traits)
            let alone = workspace.constants(ofThemeAt: Samples.theme(name), traits: traits, checkingWholeTheme: false)
            #expect(alone.value != nil && alone.value == constants.value, "\(name) \(traits)")
        }
    }

    /// Resolving one instance fills the tables as the whole pass does: a redefinition that
    /// changes a constant's type is skipped, so the first definition's value stands.
    @Test func oneInstanceAloneKeepsTheTablesOfTheWholePass() throws {
        let scratch = try Scratch([
            "One.theme/Info.xml": Scratch.info("one"),
            "One.theme/A.xml": """
            <theme>
              <constants><color name="brand">#FF0000</color></constants>
              <instances>
                <uiview id="panel"><operation name="backgroundColor"><param name="color"><color ref="brand"/></param></operation></uiview>
                <uiview id="other"><operation name="alpha"><param name="value"><float>0.5</float></param></operation></uiview>
              </instances>
            </theme>
            """,
            "One.theme/B.xml": """
            <theme><constants><float name="brand">2</float></constants></theme>
            """,
        ])
        let workspace = ThemeWorkspace()
        let theme = scratch("One.theme")
        let whole = workspace.explain(themeAt: theme, identifier: "panel", traits: .none, keepingWhatResolves: true)
        let alone = workspace.explain(
            themeAt: theme, identifier: "panel", traits: .none, keepingWhatResolves: true, checkingWholeTheme: false)
        #expect(whole.diagnostics.contains { $0.code == .constantTypeChange })
        #expect(
            whole.value?.operations.first?.operation.params.first?.value == .color(Color(red: 1, green: 0, blue: 0)))
        #expect(alone.value == whole.value)
        let constants = workspace.constants(
            ofThemeAt: theme, traits: .none, keepingWhatResolves: true, checkingWholeTheme: false)
        #expect(constants.value?.first { $0.name == "brand" }?.value == .color(Color(red: 1, green: 0, blue: 0)))
        #expect(
            workspace.explain(themeAt: theme, identifier: "nope", traits: .none, checkingWholeTheme: false).value == nil
        )
    }

    @Test func recordsPlacesClassesConstantsAndOverrides() throws {
        let scratch = try Scratch([
            "Base.theme/Info.xml": Scratch.info("base"),
            "Base.theme/A.xml": """
            <theme>
              <constants><color name="brand">#FF0000</color><color name="accent" ref="brand"/></constants>
              <classes>
                <class name="rounded"><operation name="cornerRadius"><param name="radius"><float>4</float></param></operation></class>
                <class name="card" class="rounded"><operation name="alpha"><param name="value"><float>0.5</float></param></operation></class>
              </classes>
              <instances>
                <uiview id="panel" class="card">
                  <operation name="backgroundColor"><param name="color"><color ref="accent"/></param></operation>
                </uiview>
              </instances>
            </theme>
            """,
            "Child.theme/Info.xml": Scratch.info("child", parent: "base"),
            "Child.theme/A.xml": """
            <theme>
              <constants><color name="brand">#00FF00</color></constants>
              <instances>
                <uiview id="panel">
                  <operation name="cornerRadius"><param name="radius"><float>12</float></param></operation>
                </uiview>
              </instances>
            </theme>
            """,
            "Child.theme/A~dark.xml": """
            <theme><instances><uiview id="panel">
              <operation name="cornerRadius"><param name="radius"><float>20</float></param></operation>
            </uiview></instances></theme>
            """,
        ])
        let workspace = ThemeWorkspace()
        let plain = try workspace.explain(themeAt: scratch("Child.theme"), identifier: "panel", traits: .none).unwrap()
        #expect(plain.operations.map(\.operation.name) == ["alpha", "backgroundColor", "cornerRadius"])
        #expect(plain.definitions.map(\.themeID) == ["base", "child"])

        let alpha = plain.operations[0]
        #expect(alpha.origin.source == .class(name: "card", path: ["card"]))
        #expect(alpha.origin.location.line == 5)

        let background = plain.operations[1]
        #expect(background.origin.source == .instance && background.origin.themeID == "base")
        #expect(background.constants.first?.steps.map(\.constant) == ["accent", "brand"])
        #expect(background.constants.first?.steps.last?.themeID == "child", "late-bound: the child's brand")
        #expect(background.operation.param("color") == .color(Color(red: 0, green: 1, blue: 0)))

        let radius = plain.operations[2]
        #expect(radius.origin.themeID == "child" && radius.origin.layer == "A.xml")
        #expect(radius.overridden.count == 1)
        #expect(radius.overridden[0].origin.source == .class(name: "rounded", path: ["card", "rounded"]))
        #expect(radius.overridden[0].params == [Param(name: "radius", value: .float(4))])

        let dark = try workspace.explain(
            themeAt: scratch("Child.theme"), identifier: "panel", traits: TraitSet(appearance: .dark)
        ).unwrap()
        let darkRadius = try #require(dark.operations.first { $0.operation.name == "cornerRadius" })
        #expect(
            darkRadius.origin.layer == "A~dark.xml" && darkRadius.origin.layerQualifiers == TraitSet(appearance: .dark))
        #expect(darkRadius.overridden.map(\.origin.layer) == ["A.xml", "A.xml"])
        #expect(darkRadius.overridden.map { $0.params?.first?.value } == [.float(12), .float(4)])

        let text = ExplainText.render(dark)
        #expect(text.contains("3. cornerRadius = float 20"))
        #expect(text.contains("overrides float 12 from instance at \(scratch("Child.theme"))/A.xml:5:7"))
        #expect(text.contains("from class card > rounded"))

        let missing = workspace.explain(themeAt: scratch("Child.theme"), identifier: "nope", traits: .none)
        #expect(missing.value == nil && !missing.diagnostics.hasErrors)
    }

    @Test func constantsAndNames() throws {
        let workspace = ThemeWorkspace()
        let constants = try workspace.constants(ofThemeAt: Samples.theme("Dark"), traits: .none).unwrap()
        let brand = try #require(constants.first { $0.name == "brand" })
        #expect(brand.themeID == "com.livery.dark")
        #expect(constants.first { $0.name == "accent" }?.reference == "brand")
        let names = try workspace.names(ofThemeAt: Samples.theme("Dark")).unwrap()
        #expect(names.instances["button_send"] == "uibutton")
        #expect(names.constants["brand"] == .color)
        #expect(names.classes.contains("rounded"))
    }
}
