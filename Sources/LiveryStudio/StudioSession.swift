import Foundation
import LiveryModel
import LiveryTooling
import LiveryXML

/// What a studio edits: theme folders read through the XML front end, drawn as composed screens,
/// explained operation by operation, and changed one value at a time through `ThemeFiles`.
/// Every edit is checked against the version of the file the page saw; the files on disk are
/// re-read whenever they change (`refreshIfChanged`), whoever changed them.
public actor StudioSession {
    /// The folders given as PATH (theme folders, or folders holding them), canonical.
    public let roots: [String]
    /// Folders given with `--themes`: searched for parents, never written.
    public let readOnlyRoots: [String]
    public let files: ThemeFiles
    public private(set) var generation = 0

    var workspace: ThemeWorkspace
    private var snapshot: SourceSnapshot
    private var outlines: [String: SourceOutline] = [:]
    private var undoSteps: [Step] = []
    private var redoSteps: [Step] = []
    private var lastMessage: String?
    /// The findings of each theme folder validated since the files last changed.
    private var findingsByFolder: [String: [StudioDiagnostic]] = [:]
    /// `themes()` since the files last changed.
    private var themeList: [StudioTheme]?
    /// `themeFolders()`, and the `Info.xml` files it was made from.
    private var folderList:
        (signature: [String: SourceSnapshot.Stamp], folders: [(folder: String, id: String, name: String)])?

    /// The errors `EditCheck` found in a theme folder after the last edit written, and the stamps of
    /// the folder's files then: while they are the same, the next check starts from them.
    private var checked: (folder: String, stamps: [String: SourceSnapshot.Stamp], errors: EditCheck.Errors)?

    func stamps(of folder: String) -> [String: SourceSnapshot.Stamp] {
        snapshot.files.filter { $0.key.hasPrefix(folder + "/") }
    }

    /// One write: the file before (nil: it did not exist) and after.
    struct Step {
        var path: String
        var before: [UInt8]?
        var after: [UInt8]
        var description: String
    }

    public init(paths: [String], readOnlyFolders: [String] = []) {
        files = ThemeFiles(writable: paths, readOnly: readOnlyFolders)
        roots = files.writableRoots
        readOnlyRoots = files.readOnlyRoots
        workspace = Self.makeWorkspace(roots: files.writableRoots, readOnly: files.readOnlyRoots)
        snapshot = SourceSnapshot.take(files.writableRoots + files.readOnlyRoots)
    }

    static func makeWorkspace(roots: [String], readOnly: [String]) -> ThemeWorkspace {
        var search = readOnly
        for root in roots where !root.hasSuffix(".theme") { search.append(root) }
        return ThemeWorkspace(searchPaths: search)
    }

    // MARK: - Files and themes

    /// Re-reads the folders when a file was saved, added or removed since the last look.
    @discardableResult
    public func refreshIfChanged() -> Bool {
        let current = SourceSnapshot.take(roots + readOnlyRoots)
        guard current != snapshot else { return false }
        snapshot = current
        reload()
        return true
    }

    private func reload() {
        workspace = Self.makeWorkspace(roots: roots, readOnly: readOnlyRoots)
        outlines = [:]
        findingsByFolder = [:]
        themeList = nil
        generation += 1
    }

    /// Every theme folder under the roots and read-only folders, by id.
    public func themes() -> [StudioTheme] {
        if let themeList { return themeList }
        var result: [StudioTheme] = []
        for (folder, id, name) in themeFolders() {
            var readOnly: String?
            if !isWritable(folder),
                readOnlyRoots.contains(where: { folder == $0 || folder.hasPrefix($0 + "/") })
            {
                readOnly = "in a folder given with --themes (read-only)"
            } else if let owner = generatedOwner(ofFolder: folder) {
                readOnly = owner
            }
            result.append(StudioTheme(id: id, name: name, folder: display(folder), readOnly: readOnly))
        }
        themeList = result.sorted { $0.id < $1.id }
        return themeList ?? []
    }

    /// The theme folders, first of each id. Forming a theme's chain decodes its folders, so the
    /// list is kept while no `Info.xml` changes: an edit of a value does not decode every theme.
    func themeFolders() -> [(folder: String, id: String, name: String)] {
        let signature = snapshot.files.filter { ($0.key as NSString).lastPathComponent == "Info.xml" }
        if let known = folderList, known.signature == signature { return known.folders }
        var folders: [(folder: String, id: String, name: String)] = []
        var seen: Set<String> = []
        for root in roots + readOnlyRoots {
            for folder in workspace.isThemeFolder(root) ? [root] : workspace.themeFolders(in: root) {
                guard let info = workspace.chain(ofThemeAt: folder).value?.last?.info, seen.insert(info.id).inserted
                else { continue }
                folders.append((folder, info.id, info.name))
            }
        }
        folderList = (signature, folders)
        return folders
    }

    func folder(ofTheme id: String) throws -> String {
        if let found = themeFolders().first(where: { $0.id == id }) { return found.folder }
        throw StudioEditError(.notFound, "no theme '\(id)' in the studio's folders")
    }

    /// A path as the page shows it: from the given folder's name on (`Themes/Base.theme/Chat.xml`).
    /// A file outside the given folders (a parent theme found beside a theme given as PATH) is
    /// shown from the folder that holds both, else from its theme folder's name: never as an
    /// absolute path of the machine.
    public func display(_ path: String) -> String {
        for root in roots + readOnlyRoots where path == root || path.hasPrefix(root + "/") {
            return (root as NSString).lastPathComponent + path.dropFirst(root.count)
        }
        for root in roots + readOnlyRoots {
            let parent = (root as NSString).deletingLastPathComponent
            if parent.count > 1, path.hasPrefix(parent + "/") { return String(path.dropFirst(parent.count + 1)) }
        }
        let folder = (path as NSString).deletingLastPathComponent
        return (folder as NSString).lastPathComponent + "/" + (path as NSString).lastPathComponent
    }

    /// A message as the page shows it: the paths in it from the given folders' names on, as
    /// `display` shows them (messages of the file layer and the front end name absolute paths).
    func relativeText(_ text: String) -> String {
        var result = text
        for root in (roots + readOnlyRoots).sorted(by: { $0.count > $1.count }) {
            let parent = (root as NSString).deletingLastPathComponent
            if parent.count > 1 { result = result.replacingOccurrences(of: parent + "/", with: "") }
        }
        return result
    }

    /// The absolute path of a page path; checked for reading or writing by `ThemeFiles`.
    func absolute(_ shown: String) throws -> String {
        let first = shown.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        guard let root = (roots + readOnlyRoots).first(where: { ($0 as NSString).lastPathComponent == first }) else {
            throw StudioEditError(.outsideFolders, "'\(shown)' is outside the studio's theme folders")
        }
        return root + shown.dropFirst(first.count)
    }

    /// Why a file generated by `livery tokens import` is not edited in place, or nil.
    func generatedOwner(ofFile path: String) -> String? {
        // The marker is in the file's first comment: its head is enough.
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 400) else { return nil }
        let head = String(decoding: data, as: UTF8.self)
        guard let marker = head.range(of: "Generated by `livery tokens import` from ") else { return nil }
        let rest = head[marker.upperBound...]
        let source = rest.range(of: ". Edit").map { String(rest[..<$0.lowerBound]) } ?? "its token files"
        return
            "generated by `livery tokens import` from \(source): edit the token file and run `livery tokens import` again"
    }

    func generatedOwner(ofFolder folder: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.hasSuffix(".xml") && name != "Info.xml" {
            if let owner = generatedOwner(ofFile: folder + "/" + name) { return owner }
        }
        return nil
    }

    func outline(_ path: String) -> SourceOutline? {
        if let known = outlines[path] { return known }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let made = SourceOutline.make(path: path, bytes: [UInt8](data)).value
        outlines[path] = made
        return made
    }

    /// The bytes of every file under the roots and read-only folders, by page path: what a
    /// following app mirrors.
    public func allFiles() -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for path in snapshot.files.keys where !(path as NSString).lastPathComponent.hasPrefix(".") {
            if let data = FileManager.default.contents(atPath: path) { result[display(path)] = [UInt8](data) }
        }
        return result
    }

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

    // MARK: - Explain

    /// The effective operations of instance `id` with their provenance and the places an edit of each can go.
    public func explain(themeID: String, traits: String, id: String) throws -> StudioExplanation {
        let folder = try folder(ofTheme: themeID)
        let traitSet: TraitSet
        do { traitSet = try ThemeSource.traits(traits, dimensions: workspace.dimensions(forThemeAt: folder)) } catch {
            throw StudioEditError(.invalid, error.message)
        }
        let result = workspace.explain(themeAt: folder, identifier: id, traits: traitSet)
        guard let explanation = result.value else {
            throw StudioEditError(
                .notFound,
                result.diagnostics.first(where: { $0.severity == .error }).map { relativeText($0.description) }
                    ?? "no instance '\(id)' in \(themeID) with these traits")
        }
        let schema = workspace.schema(forThemeAt: folder)
        let theme = workspace.resolve(themeAt: folder, traits: traitSet, keepingWhatResolves: true).value
        var operations: [StudioOperation] = []
        var background: Color?
        var foreground: Color?
        var font: Font?
        var constantsByName: [String: ResolvedConstant]?
        for explained in explanation.operations {
            let operation = explained.operation
            let role = schema?.operation(operation.name, of: explanation.component)?.params.first?.role
            for param in operation.params {
                if operation.state == .normal, case .color(let color) = param.value {
                    if role == .backgroundColor { background = background ?? color }
                    if role == .textColor { foreground = foreground ?? color }
                }
                if operation.state == .normal, case .font(let value) = param.value,
                    operation.name == "font" || operation.name == "titleFont"
                {
                    font = value
                }
                let trail = explained.constants.first { $0.param == param.name }
                var choices: [String]?
                if case .enumeration = param.value,
                    let declared = schema?.operation(operation.name, of: explanation.component)?.params.first(where: {
                        $0.name == param.name
                    })
                {
                    choices = declared.allowedValues
                }
                let targets = targets(
                    for: explained, param: param, trail: trail, instance: explanation, themeID: themeID,
                    themeFolder: folder, traits: traitSet)
                var fields = Self.fields(param.value)
                if case .color(let color) = param.value {
                    fields["content"] = targets.first.flatMap(writtenColor) ?? Self.hex(color)
                }
                var studioOperation = StudioOperation(
                    name: operation.name, state: operation.state.rawValue, param: param.name,
                    type: param.value.type,
                    value: ValueText.describe(param.value), fields: fields,
                    origin: origin(explained.origin),
                    constants: trail?.steps.map(\.constant) ?? [],
                    overridden: explained.overridden.map { origin($0.origin) },
                    targets: targets,
                    choices: choices)
                if constantsByName == nil, param.value.type == .color {
                    let constants =
                        workspace.constants(
                            ofThemeAt: folder, traits: traitSet, keepingWhatResolves: true, checkingWholeTheme: false
                        ).value ?? []
                    constantsByName = Dictionary(constants.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
                }
                studioOperation.derived = derivation(
                    of: param, in: explained, instance: explanation, trail: trail, themeFolder: folder,
                    themeID: themeID, traits: traitSet, constants: constantsByName ?? [:])
                if let step = trail?.steps.last {
                    studioOperation.definedAt = StudioOrigin(
                        themeID: step.themeID, file: display(step.location.file), line: step.location.line,
                        layer: (step.location.file as NSString).lastPathComponent, source: "constant \(step.constant)")
                }
                operations.append(studioOperation)
            }
        }
        let assets = Array(Set(theme?.assets.variants.map(\.name) ?? [])).sorted()
        return StudioExplanation(
            themeID: themeID, traits: explanation.dimensions.tags(of: traitSet).joined(separator: ","), id: id,
            component: explanation.component,
            background: background?.hexString, textColor: foreground?.hexString,
            largeText: ContrastRatio.isLargeText(font), highContrast: traitSet.contrast != nil,
            operations: operations, assets: assets)
    }

    /// A colour as the hex field shows it when its file does not write it in hex: `#RRGGBB`, with
    /// the alpha pair only when it is not opaque.
    static func hex(_ color: Color) -> String {
        let text = color.hexString
        return text.hasSuffix("FF") ? String(text.dropLast(2)) : text
    }

    /// A colour's text as its file writes it (`#0062CC`, `#fff`), when the target's value is a hex
    /// literal; nil for a reference or another notation.
    func writtenColor(_ target: StudioTarget) -> String? {
        guard target.kind == .value, let path = try? absolute(target.file), let outline = outline(path),
            let value = find(target, in: outline), !value.isReference, let content = value.spans.content
        else { return nil }
        if let format = value.spans.attribute("format"),
            String(decoding: outline.bytes[format.range], as: UTF8.self) != "hex"
        {
            return nil
        }
        let text = String(decoding: outline.bytes[content.range], as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return text.hasPrefix("#") && [4, 5, 7, 9].contains(text.count) ? text : nil
    }

    /// A value slot by slot, as the editors start from it.
    static func fields(_ value: Value) -> [String: String] {
        switch value {
        case .font(let font):
            var fields = ["family": font.family, "weight": font.weight.rawValue]
            if let size = font.size { fields["size"] = ValueText.number(size) }
            if let maxSize = font.maxSize { fields["max-size"] = ValueText.number(maxSize) }
            if let scaling = font.scaling { fields["scaling"] = scaling.rawValue }
            if let spacing = font.letterSpacing { fields["letter-spacing"] = ValueText.number(spacing) }
            if let lineHeight = font.lineHeight { fields["line-height"] = ValueText.number(lineHeight) }
            return fields
        case .string(let text): return ["content": text]
        case .image(let image): return ["content": image.name]
        case .float, .integer, .bool, .color, .point, .size, .rect, .insets, .enumeration, .array:
            return ["content": ValueText.describe(value)]
        }
    }

    func origin(_ origin: OperationOrigin) -> StudioOrigin {
        let source: String =
            switch origin.source {
            case .instance: "instance"
            case .class(let name, _): "class \(name)"
            }
        return StudioOrigin(
            themeID: origin.themeID, file: display(origin.location.file), line: origin.location.line,
            layer: origin.layer, source: source)
    }

    /// Where an edit of one param can go, the place that gave the value first.
    func targets(
        for explained: ExplainedOperation, param: Param, trail: ConstantTrail?, instance: InstanceExplanation,
        themeID: String, themeFolder: String, traits: TraitSet
    ) -> [StudioTarget] {
        var targets: [StudioTarget] = []
        let operation = explained.operation
        // The constant the value comes through (its final definition): every use follows.
        if let step = trail?.steps.last {
            let path = step.location.file
            var target = StudioTarget(
                kind: .value, label: "constant \(step.constant) (every use follows)", file: display(path),
                themeID: step.themeID, layer: (path as NSString).lastPathComponent,
                readOnly: readOnlyReason(path), ownerKind: "constant", ownerName: step.constant)
            target.version = version(path)
            targets.append(target)
        }
        // The place the operation is written, as explain shows it.
        let path = explained.origin.location.file
        var written = StudioTarget(
            kind: .value, label: "", file: display(path), themeID: explained.origin.themeID,
            layer: explained.origin.layer, readOnly: readOnlyReason(path),
            operation: operation.name, state: operation.state.rawValue, param: param.name)
        switch explained.origin.source {
        case .instance:
            written.ownerKind = "instance"
            written.ownerName = instance.id
            written.label = "this instance in \(explained.origin.themeID), \(explained.origin.layer)"
        case .class(let name, _):
            written.ownerKind = "class"
            written.ownerName = name
            written.label =
                "class \(name) in \(explained.origin.themeID), \(explained.origin.layer) (every instance of the class follows)"
        }
        written.version = version(path)
        if trail == nil {
            targets.insert(written, at: 0)
        } else if case .instance = explained.origin.source {
            targets.append(written)
        }
        // Overrides in the theme shown: its generic layer and the layers of the active traits.
        let base =
            ((instance.definitions.last?.layer ?? explained.origin.layer) as NSString).deletingPathExtension
            .split(separator: "~").first.map(String.init) ?? "Chat"
        var layers = [base + ".xml"]
        let tags = workspace.dimensions(forThemeAt: themeFolder).tags(of: traits).filter {
            $0 != traits.idiom?.rawValue
        }
        for tag in tags { layers.append(base + "~" + tag + ".xml") }
        if let idiom = traits.idiom?.rawValue { layers.append(base + "~" + idiom + ".xml") }
        for layer in layers {
            let file = themeFolder + "/" + layer
            if file == path, case .instance = explained.origin.source { continue }
            var override = StudioTarget(
                kind: .override, label: "override in \(themeID), \(layer)", file: display(file), themeID: themeID,
                layer: layer, readOnly: readOnlyReason(file), operation: operation.name,
                state: operation.state.rawValue, param: param.name, instanceID: instance.id,
                component: instance.component, valueType: param.value.type)
            override.version = version(file)
            targets.append(override)
        }
        return targets
    }

    /// Whether `path` is, or lies in, a folder given as PATH: a theme given as PATH is editable
    /// wherever else (a `--themes` folder) it is also found.
    func isWritable(_ path: String) -> Bool {
        roots.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    func readOnlyReason(_ path: String) -> String? {
        if !isWritable(path), readOnlyRoots.contains(where: { path.hasPrefix($0 + "/") }) {
            return "\(display(path)) is in a folder given with --themes (read-only)"
        }
        if let owner = generatedOwner(ofFile: path) { return "\(display(path)) is \(owner)" }
        if !roots.contains(where: { path.hasPrefix($0 + "/") }) {
            return "\(display(path)) is outside the studio's folders"
        }
        return nil
    }

    func version(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { ThemeFiles.version(of: [UInt8]($0)) }
    }

    // MARK: - Edits

    /// Makes one edit, if the target's file is still the version the page saw.
    public func edit(_ request: StudioEditRequest) -> StudioEditResult {
        _ = refreshIfChanged()
        do {
            let target = request.target
            let path = try files.check(try absolute(target.file), forWriting: true)
            if let reason = generatedOwner(ofFile: path) {
                throw StudioEditError(.generated, "\(target.file) is \(reason)")
            }
            let current = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
            guard current.map(ThemeFiles.version) == target.version else {
                reload()
                throw StudioEditError(
                    .stale,
                    "\(target.file) changed on disk since the page read it; the page has been reloaded, make the edit again"
                )
            }
            let after: [UInt8]
            switch target.kind {
            case .value:
                guard let bytes = current, let outline = SourceOutline.make(path: path, bytes: bytes).value else {
                    throw StudioEditError(.invalid, "\(target.file) does not parse; fix it in a text editor first")
                }
                guard let value = find(target, in: outline) else {
                    throw StudioEditError(
                        .notFound, "\(target.file) no longer holds that value; the page has been reloaded")
                }
                let slot = ValueSlot(name: request.slot)
                if value.isReference, !value.derivesColor, slot == .content || target.ownerKind != "constant" {
                    // A reference written here becomes a literal of this place only.
                    let element = try literalElement(
                        type: value.type, slot: slot, text: request.text, fields: request.fields)
                    after = SourceEdit(span: value.spans.element, replacement: element).applied(to: bytes)
                } else {
                    after = try ValueNotation.edit(value, slot: slot, text: request.text, in: bytes).applied(to: bytes)
                }
            case .override:
                guard let id = target.instanceID, let component = target.component, let operation = target.operation,
                    let param = target.param, let type = target.valueType
                else {
                    throw StudioEditError(.invalid, "an override needs the instance, operation, param and type")
                }
                try checkLayer(path, shown: target.file, ofTheme: target.themeID)
                let object = try literalElement(
                    type: type, slot: ValueSlot(name: request.slot), text: request.text, fields: request.fields)
                let element = OverrideInsertion.operationElement(
                    name: operation, state: ControlState(rawValue: target.state ?? "normal"),
                    param: param, object: object)
                if let bytes = current {
                    guard let outline = SourceOutline.make(path: path, bytes: bytes).value else {
                        throw StudioEditError(.invalid, "\(target.file) does not parse; fix it in a text editor first")
                    }
                    after = try OverrideInsertion.edit(
                        adding: element, toInstance: id, component: component, in: outline
                    ).applied(to: bytes)
                } else {
                    after = OverrideInsertion.newFile(adding: element, toInstance: id, component: component)
                }
            }
            guard SourceOutline.make(path: path, bytes: after).value != nil else {
                throw StudioEditError(.invalid, "the edit would not leave well-formed XML; nothing was written")
            }
            // The rules of `validate`, before anything is written.
            let name = (path as NSString).lastPathComponent
            let themeFolder = (path as NSString).deletingLastPathComponent
            let known = checked.flatMap {
                $0.folder == themeFolder && $0.stamps == stamps(of: themeFolder) ? $0.errors : nil
            }
            let (errors, afterErrors) = StudioTrace.measure("edit.check") {
                EditCheck(searchPaths: workspace.searchPaths).newErrors(
                    themeFolder: themeFolder, file: name, before: current, after: after, known: known)
            }
            if let first = errors.first {
                let shown = (target.file as NSString).deletingLastPathComponent
                var place = ""
                if let location = first.location {
                    var parts: [String] = [shown + "/" + location.file]
                    if let line = location.line { parts.append(String(line)) }
                    if let column = location.column { parts.append(String(column)) }
                    place = parts.joined(separator: ":") + ": "
                }
                throw StudioEditError(
                    .invalid,
                    "\(request.text) is refused, nothing was written: \(place)\(first.message) [\(first.code.rawValue)]"
                )
            }
            try files.write(after, to: path, expectedVersion: target.version)
            let description =
                "\(target.file): \(target.operation ?? target.ownerName ?? "value") \(request.slot) = \(request.text)"
            undoSteps.append(Step(path: path, before: current, after: after, description: description))
            redoSteps = []
            let result = finish("wrote " + description, file: target.file)
            checked = (themeFolder, stamps(of: themeFolder), afterErrors)
            return result
        } catch let error as StudioEditError {
            return refuse(error)
        } catch {
            return refuse(StudioEditError(.writeFailed, "\(error)"))
        }
    }

    /// A new override goes into a layer file of the theme it overrides: `Name.xml` or
    /// `Name~qualifiers.xml`, directly in that theme's folder. Anything else (a file elsewhere in
    /// the served folders, in another theme, a name with a path in it, not `.xml`) is refused.
    func checkLayer(_ path: String, shown: String, ofTheme themeID: String) throws {
        let folder = try self.folder(ofTheme: themeID)
        let name = (path as NSString).lastPathComponent
        guard (path as NSString).deletingLastPathComponent == folder, Self.isLayerName(name) else {
            throw StudioEditError(
                .invalid,
                "'\(shown)' is not a layer file of \(themeID): an override goes into Name.xml or Name~qualifiers.xml directly in \(display(folder)); nothing was written"
            )
        }
    }

    /// `Chat.xml`, `Chat~ipad~dark.xml`: a base name of letters, digits, `-` and `_`, then trait
    /// qualifiers the format knows, then `.xml`. Not `Info.xml`.
    static func isLayerName(_ name: String) -> Bool {
        guard name.hasSuffix(".xml") else { return false }
        let parts = name.dropLast(4).split(separator: "~", omittingEmptySubsequences: false)
        guard let base = parts.first, !base.isEmpty, base.lowercased() != "info",
            base.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return false }
        return (try? TraitSet(tags: parts.dropFirst())) != nil && !parts.dropFirst().contains { $0.isEmpty }
    }

    /// The typed element for a literal value written where there was none, in the value's usual notation.
    func literalElement(type: ValueType, slot: ValueSlot, text: String, fields: [String: String]?) throws -> String {
        let descriptor = type.descriptor
        if descriptor.content == .attributes {
            var attributes = fields ?? [:]
            if case .attribute(let name) = slot { attributes[name] = text }
            if let missing = descriptor.attributes.first(where: {
                $0.presence == .required && attributes[$0.name] == nil
            }) {
                throw StudioEditError(.invalid, "a \(descriptor.elementName) needs its \(missing.name)")
            }
            let ordered = descriptor.attributeNames.compactMap { name in attributes[name].map { (name, $0) } }
            return OverrideInsertion.typedElement(type: type, text: "", attributes: ordered)
        }
        var content = text
        if descriptor.content == .text(.color) {
            content = try ValueNotation.colorText(text, format: "hex", like: "#000000")
        }
        return OverrideInsertion.typedElement(type: type, text: content)
    }

    func find(_ target: StudioTarget, in outline: SourceOutline) -> SourceValue? {
        let state = ControlState(rawValue: target.state ?? "normal")
        return outline.values.last { value in
            switch (value.owner, target.ownerKind) {
            case (.constant(let name), "constant"): return name == target.ownerName
            case (.instance(let id, _, let operation, let valueState, let param), "instance"):
                return id == target.ownerName && operation == target.operation && valueState == state
                    && param == target.param
            case (.class(let name, let operation, let valueState, let param), "class"):
                return name == target.ownerName && operation == target.operation && valueState == state
                    && param == target.param
            default: return false
            }
        }
    }

    /// Writes back the file as it was before the last edit (refused when it changed since).
    public func undo() -> StudioEditResult { step(.undo) }

    /// Writes again the last edit undone (refused when the file changed since).
    public func redo() -> StudioEditResult { step(.redo) }

    private enum StepDirection { case undo, redo }

    /// Undo and redo: the last step of one stack is written back (undo restores its `before`,
    /// redo its `after`) and moves to the other stack; a refused step stays where it was.
    private func step(_ direction: StepDirection) -> StudioEditResult {
        _ = refreshIfChanged()
        let undoing = direction == .undo
        guard let step = undoing ? undoSteps.last : redoSteps.last else {
            return refuse(StudioEditError(.notFound, undoing ? "nothing to undo" : "nothing to redo"))
        }
        do {
            if undoing {
                try restore(step.path, from: step.after, to: step.before)
                undoSteps.removeLast()
                redoSteps.append(step)
            } else {
                try restore(step.path, from: step.before, to: step.after)
                redoSteps.removeLast()
                undoSteps.append(step)
            }
            return finish((undoing ? "undid " : "redid ") + step.description, file: display(step.path))
        } catch let error as StudioEditError {
            return refuse(error)
        } catch {
            return refuse(StudioEditError(.writeFailed, "\(error)"))
        }
    }

    /// Puts a file back to `bytes` (nil: removes it) if it is still exactly `expected`.
    private func restore(_ path: String, from expected: [UInt8]?, to bytes: [UInt8]?) throws {
        let checked = try files.check(path, forWriting: true)
        let current = FileManager.default.contents(atPath: checked).map { [UInt8]($0) }
        guard current == expected else {
            throw StudioEditError(
                .stale,
                "\(display(path)) changed on disk after that edit; undo would overwrite the change, so it was not done")
        }
        if let bytes {
            try files.write(bytes, to: checked, expectedVersion: expected.map(ThemeFiles.version))
        } else {
            unlink(checked)
        }
    }

    private func finish(_ message: String, file: String) -> StudioEditResult {
        snapshot = SourceSnapshot.take(roots + readOnlyRoots)
        reload()
        lastMessage = message
        return StudioEditResult(ok: true, message: message, refusal: nil, file: file, generation: generation)
    }

    private func refuse(_ error: StudioEditError) -> StudioEditResult {
        let message = relativeText(error.message)
        lastMessage = message
        return StudioEditResult(
            ok: false, message: message, refusal: error.kind.rawValue, file: nil, generation: generation)
    }
}
