import LiveryModel

/// Reads one `.theme` folder: `Info.xml`, every configuration (and schema) file directly in it,
/// and the files under `assets/`. Collects every problem instead of stopping at the first.
struct ThemeFolderReader {
    var limits: FrontEndLimits
    /// Numbers operations uniquely across everything this reader reads (a workspace reads each
    /// folder with a reader of its own, then rebases the serials: `DecodedThemeFolder.rebase`).
    var nextSerial = 0
    /// Instances read so far from the theme being read (`maxInstances`).
    var instanceCount = 0
    var identities = IdentityTable()
    /// Unsaved contents that stand in for files on disk (an editor's buffers).
    var overlay: SourceOverlay?
    /// The trait dimensions of the folder being read: those it inherits and those its own schema
    /// files declare. File and asset qualifiers are parsed with them.
    var dimensions = TraitDimensions.standard
    /// The XML files of the folder being read, parsed before anything is decoded (schema files
    /// declare the dimensions the others' names use): the document, or nil when unreadable.
    var parsed: [String: (XMLDocument?, [Diagnostic])?] = [:]
    /// The schema files of the folder being read, decoded with their findings.
    var decodedSchemas: [String: (Schema, [Diagnostic])] = [:]

    /// Reads just `Info.xml`, which is all discovery needs.
    func readInfo(folder: String) -> (InfoDecoder.Decoded?, [Diagnostic]) {
        var path = FileSystem.join(folder, "Info.xml")
        var misnamed: Diagnostic?
        if FileSystem.kind(of: path, overlay: overlay) != .file {
            // info.xml or INFO.XML: read as meant (so the themes inheriting from it resolve), and
            // one finding says to rename it
            guard let name = Self.misnamedInfo(in: folder, overlay: overlay) else {
                return (
                    nil,
                    [
                        .error(
                            .infoMissing,
                            "a theme folder needs an Info.xml, e.g. <theme-info id=\"com.acme.dark\" name=\"Dark\"/>",
                            at: SourceLocation(file: path))
                    ]
                )
            }
            path = FileSystem.join(folder, name)
            misnamed = .error(
                .infoMissing,
                "the theme's Info.xml is named '\(name)'; rename it to Info.xml (file names are case-sensitive)",
                at: SourceLocation(file: path))
        }
        guard let (document, diagnostics) = parse(path) else {
            return (nil, [.error(.fileUnreadable, "cannot read the file", at: SourceLocation(file: path))])
        }
        guard let document else { return (nil, (misnamed.map { [$0] } ?? []) + diagnostics) }
        var context = DecodingContext(source: document.source)
        context.limits = limits
        let decoded = InfoDecoder.decode(document.root, context: &context)
        return (decoded, (misnamed.map { [$0] } ?? []) + diagnostics + context.diagnostics)
    }

    /// The name of an entry that is Info.xml but for its case.
    static func misnamedInfo(in folder: String, overlay: SourceOverlay? = nil) -> String? {
        (FileSystem.entries(of: folder, overlay: overlay) ?? []).first {
            $0 != "Info.xml" && $0.lowercased() == "info.xml"
        }
    }

    /// A file whose extension is one typo away from `xml` (`Chat.xlm`, `Chat.xm`): meant as a
    /// configuration file, so not ignored in silence.
    static func nearlyXML(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let suffix = name[name.index(after: dot)...].lowercased()
        guard suffix != "xml", !suffix.isEmpty, Suggestions.editDistance(Array(suffix), Array("xml")) == 1 else {
            return nil
        }
        return String(name[..<dot]) + ".xml"
    }

    /// Reads the folder of a theme whose ancestors (and the app's schema files) declare the
    /// dimensions `inherited`.
    /// `known` are the declarations of the inherited dimensions.
    mutating func read(
        folder: String, inherited: TraitDimensions = .standard, known: [DimensionDeclaration] = []
    ) -> DecodedThemeFolder {
        instanceCount = 0
        let firstSerial = nextSerial
        let (header, infoDiagnostics) = readInfo(folder: folder)
        var diagnostics = infoDiagnostics
        var files: [ConfigurationFile] = []
        var components: [ComponentSchema] = []
        var assets: [AssetVariant] = []
        var sourceFiles: [String] = []
        var unreadFiles: [String] = []
        let entries = FileSystem.entries(of: folder, overlay: overlay) ?? []
        let (dimensionFindings, declarations) = readSchemas(
            folder: folder, entries: entries, inherited: inherited, known: known)
        defer {
            parsed = [:]
            decodedSchemas = [:]
        }
        if entries.count > limits.maxFilesPerTheme {
            diagnostics.append(
                .error(
                    .fileIgnored, "the theme has \(entries.count) entries; at most \(limits.maxFilesPerTheme) are read",
                    at: SourceLocation(file: folder)))
        }
        for name in entries.prefix(limits.maxFilesPerTheme) {
            let path = FileSystem.join(folder, name)
            switch FileSystem.kind(of: path, overlay: overlay) {
            case .link:
                diagnostics.append(
                    .error(
                        .fileLink,
                        "'\(name)' is a symbolic link; theme folders hold real files only, so nothing outside the folder is read",
                        at: SourceLocation(file: path)))
            case .directory where name == "assets":
                readAssets(
                    folder: folder, relative: "assets", themeID: header?.info.id ?? "",
                    into: &assets, sourceFiles: &sourceFiles, diagnostics: &diagnostics)
            case .directory:
                if let layout = Self.otherToolsLayout(name) {
                    // meant to be read: an error, saying where its files go; what they would
                    // define or use is unknown, so nothing is reported unused or unknown for it
                    diagnostics.append(
                        .error(
                            .fileIgnored, "subfolder '\(name)' is ignored: \(layout)", at: SourceLocation(file: path)))
                    unreadFiles.append(name)
                    continue
                }
                diagnostics.append(
                    .warning(
                        .fileIgnored, "subfolder '\(name)' is ignored; only assets/ is read from a theme's subfolders",
                        at: SourceLocation(file: path)))
            case .file
            where name == "Info.xml"
                || (name.lowercased() == "info.xml" && Self.misnamedInfo(in: folder, overlay: overlay) == name):
                sourceFiles.append(name)
            case .file where Self.nearlyXML(name) != nil:
                let meant = Self.nearlyXML(name)!
                diagnostics.append(
                    .error(
                        .fileIgnored,
                        "'\(name)' is not read: configuration files end in .xml; did you mean '\(meant)'?",
                        at: SourceLocation(file: path)))
                unreadFiles.append(name)
            case .file where name.lowercased().hasSuffix(".xml"):
                sourceFiles.append(name)
                let before = files.count + components.count
                let errors = diagnostics.filter { $0.severity == .error }.count
                readConfiguration(
                    path: path, name: name, into: &files, components: &components, diagnostics: &diagnostics)
                // nothing came out of a file with errors: it was not read (malformed, wrong root)
                if files.count + components.count == before,
                    diagnostics.filter({ $0.severity == .error }).count > errors
                {
                    unreadFiles.append(name)
                }
            default:
                continue
            }
        }
        return DecodedThemeFolder(
            path: folder, header: header, files: files, schemaComponents: components,
            assets: assets, sourceFiles: sourceFiles.sorted(), diagnostics: diagnostics + dimensionFindings,
            unreadFiles: unreadFiles, serials: firstSerial..<nextSerial, inherited: inherited, dimensions: dimensions,
            declarations: declarations)
    }

    /// Parses the folder's XML files and decodes its schema files, then sets `dimensions`: the
    /// inherited ones and those declared here. Returns the findings about the declarations, and
    /// the declarations of every dimension then in force (`known` and those accepted here).
    private mutating func readSchemas(
        folder: String, entries: [String], inherited: TraitDimensions, known: [DimensionDeclaration]
    ) -> ([Diagnostic], [DimensionDeclaration]) {
        parsed = [:]
        decodedSchemas = [:]
        var declarations: [DimensionDeclaration] = []
        for name in entries.prefix(limits.maxFilesPerTheme)
        where name.lowercased().hasSuffix(".xml") && name.lowercased() != "info.xml" {
            let path = FileSystem.join(folder, name)
            guard FileSystem.kind(of: path, overlay: overlay) == .file else { continue }
            let result = parse(path)
            parsed[name] = .some(result)
            guard let (document, _) = result, let document, document.root.name == "components" else { continue }
            // A theme may carry the schema of the custom components it styles (a Livery extension:
            // it applies to the theme and every theme inheriting from it), and declare dimensions.
            var context = DecodingContext(source: document.source)
            context.limits = limits
            let schema = SchemaDecoder.decode(document.root, context: &context)
            decodedSchemas[name] = (schema, context.diagnostics)
            declarations += schema.dimensions
        }
        let (dimensions, refusals) = inherited.adding(declarations, known: known)
        self.dimensions = dimensions
        let refused = Set(refusals.map(\.declaration))
        return (refusals.map(DimensionFindings.finding), known + declarations.filter { !refused.contains($0) })
    }

    /// What a subfolder laid out as another tool lays out resources means in a theme folder:
    /// Android's `values-night` and `drawable-hdpi`, an Xcode asset catalog, a CSS `images` folder.
    static func otherToolsLayout(_ name: String) -> String? {
        let lowered = name.lowercased()
        if lowered.hasSuffix(".xcassets") {
            return
                "an asset catalog is Xcode's layout; put images in assets/ (bubble.png, bubble@2x.png) and colours in a configuration file's <constants>"
        }
        let parts = lowered.split(separator: "-")
        guard let kind = parts.first else { return nil }
        switch kind {
        case "values":
            let qualifiers = parts.dropFirst().map {
                Suggestions.synonym(of: String($0), in: TraitSet.knownTags) ?? String($0)
            }
            let example = qualifiers.isEmpty ? "Chat.xml" : "Chat~" + qualifiers.joined(separator: "~") + ".xml"
            return
                "Android's resource folders are not read; a variant is a configuration file beside Info.xml whose name carries its qualifiers, e.g. \(example)"
        case "drawable", "mipmap":
            return
                "Android's resource folders are not read; images go in assets/, a density as @2x or @3x in the file name (bubble@2x.png)"
        default:
            return nil
        }
    }

    private mutating func readConfiguration(
        path: String, name: String, into files: inout [ConfigurationFile],
        components: inout [ComponentSchema], diagnostics: inout [Diagnostic]
    ) {
        let qualified: QualifiedFileName
        do {
            qualified = try QualifiedFileName.parse(name, dimensions: dimensions)
        } catch {
            diagnostics.append(
                QualifiedFileName.diagnostic(
                    for: error, file: name, location: SourceLocation(file: path), dimensions: dimensions))
            return
        }
        guard let (document, parseDiagnostics) = parsed[name] ?? parse(path) else {
            diagnostics.append(.error(.fileUnreadable, "cannot read the file", at: SourceLocation(file: path)))
            return
        }
        diagnostics += parseDiagnostics
        guard let document else { return }
        var context = DecodingContext(source: document.source)
        context.limits = limits
        defer { diagnostics += context.diagnostics }
        switch document.root.name {
        case "components":
            // decoded with the others before any file name was parsed (`readSchemas`)
            let (schema, findings) =
                decodedSchemas[name] ?? (SchemaDecoder.decode(document.root, context: &context), [])
            components += schema.components.values.sorted { $0.name < $1.name }
            context.diagnostics += findings
        case "theme":
            var decoder = ConfigurationDecoder(context: context, nextSerial: nextSerial, identities: identities)
            var file = decoder.decode(document.root, fileName: name, qualifiers: qualified.qualifiers)
            nextSerial = decoder.nextSerial
            context = decoder.context
            let room = max(limits.maxInstances - instanceCount, 0)
            if file.instances.count > room {
                context.error(
                    .limitExceeded,
                    "the theme has more than \(limits.maxInstances) instances; this one is past the limit",
                    at: file.instances[room].mark.location)
                file.instances.removeSubrange(room...)
            }
            instanceCount += file.instances.count
            files.append(file)
        default:
            context.error(
                .rootUnexpected,
                "a configuration file must have a <theme> root element (or <components> for a schema), found <\(document.root.name)>",
                at: context.location(document.root))
        }
    }

    private func readAssets(
        folder: String, relative: String, themeID: String, into assets: inout [AssetVariant],
        sourceFiles: inout [String], diagnostics: inout [Diagnostic]
    ) {
        var seen: [AssetKey: String] = [:]
        var pending = [relative]
        var count = 0
        var totalBytes = 0
        while let directory = pending.popLast() {
            for name in FileSystem.entries(of: FileSystem.join(folder, directory)) ?? [] {
                let file = directory + "/" + name
                let path = FileSystem.join(folder, file)
                let kind = FileSystem.kind(of: path)
                if kind == .directory || kind == .file {
                    // Folders count too, so a deep or wide tree of empty folders is bounded as well.
                    count += 1
                    guard count <= limits.maxAssetsPerTheme else {
                        diagnostics.append(
                            .error(
                                .fileIgnored,
                                "more than \(limits.maxAssetsPerTheme) asset files and folders; the rest are ignored",
                                at: SourceLocation(file: path)))
                        return
                    }
                }
                switch kind {
                case .directory:
                    pending.append(file)
                    continue
                case .file:
                    let size = FileSystem.size(of: path) ?? 0
                    guard size <= limits.maxAssetBytes else {
                        diagnostics.append(
                            .error(
                                .limitExceeded,
                                "asset '\(file)' is \(size) bytes; an asset file is at most \(limits.maxAssetBytes) bytes",
                                at: SourceLocation(file: path)))
                        continue
                    }
                    totalBytes += size
                    guard totalBytes <= limits.maxTotalAssetBytes else {
                        diagnostics.append(
                            .error(
                                .limitExceeded,
                                "the theme's assets exceed \(limits.maxTotalAssetBytes) bytes together; the rest are ignored",
                                at: SourceLocation(file: path)))
                        return
                    }
                case .link:
                    diagnostics.append(
                        .error(
                            .fileLink,
                            "asset '\(file)' is a symbolic link; assets must be real files inside the theme folder",
                            at: SourceLocation(file: path)))
                    continue
                default:
                    continue
                }
                let qualified: QualifiedFileName
                do {
                    qualified = try QualifiedFileName.parse(name, dimensions: dimensions)
                } catch {
                    diagnostics.append(
                        QualifiedFileName.diagnostic(
                            for: error, file: file, location: SourceLocation(file: path), dimensions: dimensions))
                    continue
                }
                let folderPart = directory.dropFirst(relative.count + 1)
                let assetName = folderPart.isEmpty ? qualified.base : folderPart + "/" + qualified.base
                let key = AssetKey(name: assetName, qualifiers: qualified.qualifiers, scale: qualified.scale)
                if let other = seen[key] {
                    diagnostics.append(
                        .error(
                            .assetAmbiguous,
                            "'\(file)' and '\(other)' are the same variant of asset '\(assetName)'; keep one",
                            at: SourceLocation(file: path)))
                    continue
                }
                seen[key] = file
                sourceFiles.append(file)
                assets.append(
                    AssetVariant(
                        name: assetName, themeID: themeID, file: file,
                        qualifiers: qualified.qualifiers, scale: qualified.scale))
            }
        }
    }

    private struct AssetKey: Hashable {
        var name: String
        var qualifiers: TraitSet
        var scale: Int
    }

    /// nil when the file cannot be read at all; otherwise the document (nil if malformed) and findings.
    private func parse(_ path: String) -> (XMLDocument?, [Diagnostic])? {
        guard let bytes = FileSystem.read(path, limit: limits.maxFileBytes, overlay: overlay) else { return nil }
        guard bytes.count <= limits.maxFileBytes else {
            return (
                nil,
                [
                    .error(
                        .fileUnreadable,
                        "the file is larger than \(limits.maxFileBytes) bytes, the limit for a theme file",
                        at: SourceLocation(file: path))
                ]
            )
        }
        let result = XMLDocumentParser.parse(SourceText(path: path, bytes: bytes), limits: limits)
        return (result.document, result.diagnostics)
    }
}
