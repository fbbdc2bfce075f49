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
    private(set) var undoSteps: [Step] = []
    private(set) var redoSteps: [Step] = []
    private(set) var lastMessage: String?
    /// The findings of each theme folder validated since the files last changed.
    var findingsByFolder: [String: [StudioDiagnostic]] = [:]
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
