import Foundation
import LiveryModel
import LiveryXML

extension LanguageServer {
    // MARK: - Files and names

    /// A file's names, from its open buffer or the disk; cached until the text changes.
    func symbols(of path: String) -> FileSymbols? {
        let open = openURIs[path].flatMap { documents[$0] }
        let stamp: String
        if let open {
            stamp = "open \(open.version) \(open.bytes.count)"
        } else {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            stamp = "disk \(modified) \((attributes[.size] as? NSNumber)?.intValue ?? 0)"
        }
        if let cached = symbolCache[path], cached.stamp == stamp { return cached.symbols }
        // an open buffer, typed into: the symbols of its last text, brought up to date (taken out
        // of the cache, so that they are changed in place)
        if let open, var known = symbolCache.removeValue(forKey: path)?.symbols, known.update(to: open) {
            symbolCache[path] = (stamp, known)
            return known
        }
        guard let document = open ?? document(at: path) else { return nil }
        let symbols = FileSymbols(path: path, document: document)
        symbolCache[path] = (stamp, symbols)
        return symbols
    }

    /// The theme and its ancestors, nearest first.
    func chain(of theme: String) -> [String] {
        guard let project else { return [theme] }
        return project.workspace.ancestorFolders(ofThemeAt: theme)
    }

    /// Definitions of `kind` visible from `theme` (its own and its ancestors'), nearest theme first.
    func definitions(_ kind: NamedPlace.Kind, visibleFrom theme: String) -> [NamedPlace] {
        guard let project else { return [] }
        var result: [NamedPlace] = []
        for folder in chain(of: theme) {
            for file in project.files(ofThemes: [folder]) {
                result += symbols(of: file)?.definitions.filter { $0.kind == kind } ?? []
            }
        }
        return result
    }

    /// The themes a name defined in `theme` reaches: the theme and every theme inheriting from it.
    func family(of theme: String) -> [String] {
        [theme] + (project?.descendants(of: theme) ?? [])
    }

    func locationJSON(_ place: NamedPlace) -> JSONValue? {
        guard let symbols = symbols(of: place.file) else { return nil }
        return .object([("uri", .string(uri(of: place.file))), ("range", Self.json(symbols.range(place)))])
    }

    /// The open file, its theme and its names, for a request.
    func context(_ params: JSONValue) throws(ResponseError) -> (path: String, theme: String?, FileSymbols, offset: Int?)
    {
        let (_, path, document) = try openDocument(params)
        guard let symbols = symbols(of: path) else { throw .invalidParams("cannot read \(path)") }
        let offset = params["position"].flatMap(Self.position).map { document.offset(of: $0) }
        return (path, project?.theme(holding: path), symbols, offset)
    }

    // MARK: - Definition and references

    /// `textDocument/definition`: a constant or class reference, a parent id, an asset name, an
    /// instance id (where ancestors and other files define it).
    func definition(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (path, theme, symbols, offset) = try context(params)
        guard let offset, let theme else { return .null }
        if let place = symbols.place(at: offset) {
            var found = definitions(place.kind, visibleFrom: theme).filter { $0.name == place.name }
            if place.kind == .instance { found.removeAll { $0 == place } }
            return .array(found.compactMap(locationJSON))
        }
        let scan = symbols.scan
        if let tag = scan.tag(at: offset) {
            let element = scan.elements[tag]
            if element.name == "theme-info", let parent = element.attribute("parent"),
                parent.valueStart <= offset, offset <= parent.valueEnd, let project
            {
                let matches = project.themes.filter { themeID(of: $0) == parent.value }
                return .array(
                    matches.map { folder in
                        .object([
                            ("uri", .string(uri(of: FileSystemPaths.join(folder, "Info.xml")))),
                            (
                                "range",
                                Self.json(
                                    TextRange(
                                        start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)))
                            ),
                        ])
                    })
            }
        }
        if let name = assetName(at: offset, in: scan) {
            return .array(
                assetFiles(named: name, visibleFrom: theme).map { file in
                    .object([
                        ("uri", .string(Self.uri(ofPath: file))),
                        (
                            "range",
                            Self.json(
                                TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)))
                        ),
                    ])
                })
        }
        _ = path
        return .null
    }

    /// `textDocument/references`: every use of a constant or class (and its definitions, when
    /// asked) in the theme that defines it and every theme inheriting from it.
    func references(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (_, theme, symbols, offset) = try context(params)
        guard let offset, let theme, let place = symbols.place(at: offset), place.kind != .instance else {
            return .array([])
        }
        let withDeclarations = params["context"]?["includeDeclaration"]?.bool ?? true
        let places = occurrences(of: place, from: theme).filter { withDeclarations || !$0.isDefinition }
        return .array(places.compactMap { locationJSON($0.place) })
    }

    /// The definitions and uses of the name `place` names, across the themes it reaches: from
    /// the furthest ancestor that defines it down through every theme inheriting from that one.
    func occurrences(of place: NamedPlace, from theme: String) -> [(place: NamedPlace, isDefinition: Bool)] {
        guard let project else { return [] }
        let chain = self.chain(of: theme)
        let root =
            chain.last { folder in
                project.files(ofThemes: [folder]).contains { file in
                    symbols(of: file)?.definitions.contains { $0.kind == place.kind && $0.name == place.name } ?? false
                }
            } ?? theme
        var result: [(NamedPlace, Bool)] = []
        for folder in family(of: root) {
            for file in project.files(ofThemes: [folder]) {
                guard let symbols = symbols(of: file) else { continue }
                for definition in symbols.definitions
                where definition.kind == place.kind && definition.name == place.name {
                    result.append((definition, true))
                }
                for use in symbols.uses where use.kind == place.kind && use.name == place.name {
                    result.append((use, false))
                }
            }
        }
        return result
    }

    func themeID(of folder: String) -> String? {
        let info = FileSystemPaths.join(folder, "Info.xml")
        guard let symbols = symbols(of: info) else { return nil }
        return symbols.scan.elements.first { $0.name == "theme-info" }?.attribute("id")?.value
    }

    // MARK: - Symbols

    /// `textDocument/documentSymbol`: the constants, classes and instances the file defines.
    func documentSymbols(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        let (_, _, symbols, _) = try context(params)
        return .array(
            symbols.definitions.map { place in
                let range = symbols.range(place)
                return .object([
                    ("name", .string(place.name)), ("detail", .string(place.detail)),
                    ("kind", .int(Self.symbolKind(place.kind))),
                    ("range", Self.json(range)), ("selectionRange", Self.json(range)),
                ])
            })
    }

    /// `workspace/symbol`: every constant, class and instance of every theme, matched by a
    /// case-insensitive substring of the query.
    func workspaceSymbols(_ params: JSONValue) throws(ResponseError) -> JSONValue {
        guard let project else { return .array([]) }
        let query = (params["query"]?.string ?? "").lowercased()
        var result: [JSONValue] = []
        for file in project.files(ofThemes: project.themes) {
            guard let symbols = symbols(of: file) else { continue }
            for place in symbols.definitions where query.isEmpty || place.name.lowercased().contains(query) {
                result.append(
                    .object([
                        ("name", .string(place.name)), ("kind", .int(Self.symbolKind(place.kind))),
                        (
                            "containerName",
                            .string(FileSystemPaths.parent(of: file).split(separator: "/").last.map(String.init) ?? "")
                        ),
                        (
                            "location",
                            .object([("uri", .string(uri(of: file))), ("range", Self.json(symbols.range(place)))])
                        ),
                    ]))
                if result.count >= 2000 { return .array(result) }
            }
        }
        return .array(result)
    }

    static func symbolKind(_ kind: NamedPlace.Kind) -> Int {
        switch kind {
        case .constant: 14
        case .class: 5
        case .instance: 19
        }
    }

    // MARK: - Assets

    /// The asset name an `<image>` element's text or `name` gives, when `offset` is on it.
    func assetName(at offset: Int, in scan: MarkupScan) -> String? {
        guard let container = scan.container(of: offset),
            ValueType(elementName: scan.elements[container].name)?.descriptor.content == .text(.assetName),
            let content = scan.content(of: container)
        else { return nil }
        let text = String(decoding: scan.bytes[content.start..<content.end], as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The asset names under `assets/` of a theme and its ancestors (no scale, qualifiers or extension).
    func assetNames(visibleFrom theme: String) -> [String: [String]] {
        var names: [String: [String]] = [:]
        for folder in chain(of: theme) {
            let assets = FileSystemPaths.join(folder, "assets")
            guard let enumerator = FileManager.default.enumerator(atPath: assets) else { continue }
            while let relative = enumerator.nextObject() as? String {
                let file = FileSystemPaths.join(assets, relative)
                guard !FileSystemPaths.isDirectory(file) else { continue }
                names[Self.assetName(ofFile: relative), default: []].append(file)
            }
        }
        return names
    }

    func assetFiles(named name: String, visibleFrom theme: String) -> [String] {
        (assetNames(visibleFrom: theme)[name] ?? []).sorted()
    }

    /// `bubble@2x~ipad.png` -> `bubble` (folders kept: `icons/send@2x.png` -> `icons/send`).
    static func assetName(ofFile relative: String) -> String {
        let folder = relative.contains("/") ? String(relative[..<relative.lastIndex(of: "/")!]) + "/" : ""
        let file = relative.split(separator: "/").last.map(String.init) ?? relative
        let base = file.prefix { $0 != "@" && $0 != "~" && $0 != "." }
        return folder + base
    }
}
