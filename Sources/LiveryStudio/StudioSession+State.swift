import Foundation
import LiveryModel
import LiveryTooling
import LiveryXML

// What the page draws: the composed screens, the findings of the themes shown, the undo depth.
extension StudioSession {
    // MARK: - State

    /// The composed screens of `themeID` with `traits` (and of a second theme or trait set), the
    /// findings of the themes drawn (unless `findings` is false: the page asks for them apart,
    /// after it has redrawn, since checking every trait set takes longer than drawing one),
    /// and the undo depth.
    public func state(
        themeID: String?, traits: String?, compareThemeID: String? = nil, compareTraits: String? = nil,
        findings: Bool = true
    ) -> StudioState {
        let themes = StudioTrace.measure("state.themes") { self.themes() }
        var screens: [StudioScreen] = []
        for (folder, traitSet) in shown(
            themes: themes, themeID: themeID, traits: traits, compareThemeID: compareThemeID,
            compareTraits: compareTraits)
        {
            if let screen = StudioTrace.measure(
                "state.screen", { StudioScreenBuilder.screen(themeAt: folder, traits: traitSet, workspace: workspace) })
            {
                screens.append(screen)
            }
        }
        var state = StudioState(
            generation: generation, themes: themes, screens: screens,
            diagnostics: findings
                ? self.findings(
                    themeID: themeID, traits: traits, compareThemeID: compareThemeID,
                    compareTraits: compareTraits
                ).diagnostics : [],
            undo: undoSteps.count, redo: redoSteps.count)
        state.message = traitProblem(traits, compareTraits) ?? lastMessage
        return state
    }

    /// Why a trait list asked for does not parse (the first one that does not), in the words the
    /// command line uses.
    func traitProblem(_ lists: String?...) -> String? {
        let dimensions = dimensions()
        for case let list? in lists {
            do { _ = try ThemeSource.traits(list, dimensions: dimensions) } catch { return error.message }
        }
        return nil
    }

    /// The trait dimensions of the themes shown: the standard ones and every app-defined one a
    /// theme's chain declares (the page has one menu for each).
    public func dimensions() -> TraitDimensions {
        var declarations: [DimensionDeclaration] = []
        for (folder, _, _) in themeFolders() {
            declarations += workspace.dimensions(forThemeAt: folder).appDefined.map {
                DimensionDeclaration(dimension: $0)
            }
        }
        return TraitDimensions.standard.adding(declarations).0
    }

    /// The findings of the themes `state` draws, every trait set, as `validate` gives them.
    /// Kept per theme folder until the files change.
    public func findings(themeID: String?, traits: String?, compareThemeID: String? = nil, compareTraits: String? = nil)
        -> StudioFindings
    {
        var diagnostics: Set<StudioDiagnostic> = []
        var validated: Set<String> = []
        for (folder, _) in shown(
            themes: themes(), themeID: themeID, traits: traits, compareThemeID: compareThemeID,
            compareTraits: compareTraits) where validated.insert(folder).inserted
        {
            if findingsByFolder[folder] == nil {
                findingsByFolder[folder] = StudioTrace.measure("findings.validate") {
                    workspace.validate(paths: [folder])
                }.map(diagnostic)
            }
            diagnostics.formUnion(findingsByFolder[folder] ?? [])
        }
        return StudioFindings(
            generation: generation,
            diagnostics: diagnostics.sorted {
                ($0.file ?? "", $0.line ?? 0, $0.code) < ($1.file ?? "", $1.line ?? 0, $1.code)
            })
    }

    /// The theme folders and trait sets drawn: the theme asked for (else the first writable one)
    /// and, when asked, a second theme or trait set.
    func shown(
        themes: [StudioTheme], themeID: String?, traits: String?, compareThemeID: String?, compareTraits: String?
    )
        -> [(folder: String, traits: TraitSet)]
    {
        let themeID = themeID.flatMap { $0.isEmpty ? nil : $0 }
        let compareThemeID = compareThemeID.flatMap { $0.isEmpty ? nil : $0 }
        guard let first = themeID ?? themes.first(where: { $0.readOnly == nil })?.id ?? themes.first?.id else {
            return []
        }
        var requests: [(String, String)] = [(first, traits ?? "")]
        if compareThemeID != nil || compareTraits != nil {
            requests.append((compareThemeID ?? first, compareTraits ?? traits ?? ""))
        }
        return requests.compactMap { id, tags in
            guard let folder = try? folder(ofTheme: id) else { return nil }
            // A trait list that does not parse draws nothing; `state` says why.
            guard let traits = try? ThemeSource.traits(tags, dimensions: workspace.dimensions(forThemeAt: folder))
            else { return nil }
            return (folder, traits)
        }
    }

    func diagnostic(_ finding: Diagnostic) -> StudioDiagnostic {
        StudioDiagnostic(
            file: finding.location.map { display($0.file) }, line: finding.location?.line,
            column: finding.location?.column,
            severity: finding.severity.rawValue, code: finding.code.rawValue, message: relativeText(finding.message))
    }
}
