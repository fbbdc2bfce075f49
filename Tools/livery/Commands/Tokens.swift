import ArgumentParser
import Foundation
import LiveryModel
import LiveryThemeCommands
import LiveryTokens
import LiveryTooling
import LiveryXML

/// `livery tokens import|export`: W3C design tokens (DTCG 2025.10) in and out of themes.
struct Tokens: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import W3C design tokens (DTCG 2025.10) into a theme, or export a theme's constants as tokens.",
        subcommands: [Import.self, Export.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a theme folder whose constants are the tokens.",
            discussion: """
                The folder is staged beside --output, validated, and only then renamed into place: on any error nothing \
                is written. With --resolver, each modifier context becomes a qualified file (Tokens~dark.xml...). \
                Exits 0 on success, 1 on errors.
                """)

        @Argument(help: ArgumentHelp("Tokens files, merged in order (later files win).", valueName: "FILE"))
        var files: [String] = []

        @Option(name: .shortAndLong, help: ArgumentHelp("The theme folder to write.", valueName: "DIR/NAME.theme"))
        var output: String

        @Option(help: ArgumentHelp("The theme id.", valueName: "ID"))
        var id: String

        @Option(help: ArgumentHelp("The theme's display name (default: the folder name).", valueName: "NAME"))
        var name: String?

        @Option(help: ArgumentHelp("The parent theme id.", valueName: "ID"))
        var parent: String?

        @Option(
            help: ArgumentHelp(
                "A DTCG resolver document (2025.10); its sets and modifiers replace FILE arguments.", valueName: "FILE")
        )
        var resolver: String?

        @Option(
            help: ArgumentHelp(
                "Map a resolver context to qualifiers, e.g. theme:night=dark or contrast:more=highcontrast (repeatable; 'none' for the unqualified layer).",
                valueName: "MODIFIER:CONTEXT=QUALIFIER"))
        var map: [String] = []

        @Option(help: ArgumentHelp("Points per rem.", valueName: "POINTS"))
        var rem: Double = 16

        @OptionGroup var themes: ThemeOptions

        @Option(help: "Diagnostics as text lines, a JSON array or a SARIF log (all on stderr).")
        var format: DiagnosticFormat = .text

        func validate() throws {
            guard resolver != nil || !files.isEmpty else {
                throw ValidationError("give tokens files, or --resolver FILE")
            }
            guard resolver == nil || files.isEmpty else {
                throw ValidationError("give tokens files or --resolver, not both")
            }
            guard rem > 0, rem.isFinite else { throw ValidationError("--rem must be a positive number") }
        }

        /// `--map` read with the dimensions of the theme written: the standard ones, those the
        /// `--schema` files declare and those of the `--parent` theme's chain. A context named
        /// like one of their tags maps to it (`compact`), others need `--map`.
        func contextMap() throws -> ContextMap {
            let workspace = themes.workspace()
            var dimensions = workspace.schemaDimensions
            if let parent {
                let beside = (output as NSString).deletingLastPathComponent
                let folders = (themes.themeFolders + [beside.isEmpty ? "." : beside])
                    .flatMap(workspace.themeFolders(in:))
                if let folder = folders.first(where: { workspace.declaredIDs(ofThemeAt: $0)?.id == parent }) {
                    dimensions = workspace.dimensions(forThemeAt: folder)
                }
            }
            do { return try ContextMap.parse(map, dimensions: dimensions) } catch {
                throw ValidationError(
                    "--map '\(error.entry)' is not MODIFIER:CONTEXT=QUALIFIER (qualifiers: \(dimensions.knownTags.joined(separator: ", ")), joined by ~, or none)"
                )
            }
        }

        func run() throws {
            let printer = DiagnosticPrinter(format: format)
            let contextMap = try contextMap()
            var tokenImport = TokenImport(options: .init(remBase: rem)) { path in
                FileManager.default.contents(atPath: path).map { [UInt8]($0) }
            }
            let layers: [(fileName: String, constants: [ThemeConstant])]
            var sources = files
            if let resolver {
                let bytes = FileManager.default.contents(atPath: resolver).map { [UInt8]($0) }
                guard let bytes else {
                    printer.print([.error(.pathNotFound, "no such file", at: SourceLocation(file: resolver))])
                    throw ExitCode.failure
                }
                let document: ResolverDocument?
                var found: [Diagnostic]
                do {
                    (document, found) = ResolverDocument.parse(try TokenSource.read(resolver, bytes: bytes))
                } catch {
                    (document, found) = (nil, [error.diagnostic])
                }
                guard let document else {
                    printer.print(found)
                    throw ExitCode.failure
                }
                let directory = (resolver as NSString).deletingLastPathComponent
                layers = tokenImport.layers(resolver: document, map: contextMap, directory: directory)
                sources = [resolver]
            } else {
                layers = tokenImport.layers(files: files)
            }
            var diagnostics = tokenImport.diagnostics + tokenImport.importer.diagnostics
            if let skipped = tokenImport.skippedWarning { diagnostics.append(skipped) }
            diagnostics = Array(Set(diagnostics)).sorted()
            guard !diagnostics.hasErrors, !layers.isEmpty else {
                printer.print(diagnostics)
                throw ExitCode.failure
            }
            let folderName = ((output as NSString).lastPathComponent as NSString).deletingPathExtension
            let theme = TokenTheme(
                id: id, name: name ?? folderName, parent: parent, layers: layers,
                sources: sources.map { ($0 as NSString).lastPathComponent },
                roots: tokenImport.importer.rootNames, numbers: tokenImport.importer.numberNames)
            let searchPaths = themes.themeFolders + [(output as NSString).deletingLastPathComponent]
            let written = ThemeFolderWriter.write(theme, to: output) { staged in
                // The theme's own constants are used by its children, not by itself: "never
                // referenced" is expected here and would only be noise.
                ThemeWorkspace(searchPaths: searchPaths, schemaFiles: themes.schemaFiles)
                    .validate(paths: [staged]).filter { $0.code != .constantUnused }
            }
            printer.print(diagnostics + written)
            if written.hasErrors { throw ExitCode.failure }
            let count = layers.reduce(0) { $0 + $1.constants.count }
            printer.say("wrote \(output): \(count) constants in \(layers.map(\.fileName).joined(separator: ", "))")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a theme's constants as DTCG JSON, references kept as aliases.",
            discussion:
                "With --resolver, each qualified layer is written beside FILE (FILE~dark.json...) and a resolver document maps the layers to contexts. Exits 0 on success, 1 on errors."
        )

        @Argument(help: ArgumentHelp("A theme folder.", valueName: "THEME"))
        var theme: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The tokens file to write.", valueName: "FILE.json"))
        var output: String

        @Option(
            help: ArgumentHelp(
                "Export the constants as resolved for these traits, e.g. dark,highcontrast.", valueName: "T,..."))
        var traits: String?

        @Option(
            help: ArgumentHelp(
                "Also write a resolver document here, and one tokens file per qualified layer.", valueName: "FILE"))
        var resolver: String?

        @OptionGroup var themes: ThemeOptions

        @Option(help: "Diagnostics as text lines, a JSON array or a SARIF log (all on stderr).")
        var format: DiagnosticFormat = .text

        /// `--traits` read with the theme's dimensions.
        func traitSet(_ dimensions: TraitDimensions) throws -> TraitSet {
            do { return try ThemeSource.traits(traits, dimensions: dimensions) } catch {
                throw ValidationError(error.message)
            }
        }

        /// A theme's modifiers as Tokens Studio's, where it has one for them: one of lighten,
        /// darken, mix or alpha, without contrast-with. Others export as their resolved colour.
        static func studioModifier(_ modifiers: WrittenColorModifiers) -> StudioModifier? {
            guard modifiers.contrastWith == nil else { return nil }
            switch (modifiers.shift, modifiers.alpha) {
            case (.lighten(let p)?, nil): return StudioModifier(kind: .lighten, value: p, space: modifiers.space)
            case (.darken(let p)?, nil): return StudioModifier(kind: .darken, value: p, space: modifiers.space)
            case (.mix(let operand, let p)?, nil):
                return StudioModifier(kind: .mix, value: p, space: modifiers.space, color: operand)
            case (nil, let alpha?): return StudioModifier(kind: .alpha, value: alpha, space: modifiers.space)
            default: return nil
            }
        }

        func run() throws {
            let printer = DiagnosticPrinter(format: format)
            let workspace = themes.workspace()
            let base = try traitSet(workspace.dimensions(forThemeAt: theme))
            let chain = workspace.chain(ofThemeAt: theme)
            guard let ownID = chain.value?.last?.info.id else {
                printer.print(chain.diagnostics)
                throw ExitCode.failure
            }
            // The theme's own constants: inherited ones are its parents' tokens (export those
            // themes for them); a reference to one is written as its value.
            func constants(_ traits: TraitSet) throws -> [ExportedConstant] {
                let result = workspace.constants(ofThemeAt: theme, traits: traits)
                guard let value = result.value else {
                    printer.print(result.diagnostics)
                    throw ExitCode.failure
                }
                return value.filter { $0.themeID == ownID }.map { resolved in
                    var constant = ExportedConstant(
                        name: resolved.name, value: resolved.value, reference: resolved.reference)
                    constant.overridable = resolved.overridable
                    if let modifiers = resolved.modifiers {
                        constant.modifier = Self.studioModifier(modifiers)
                        constant.modifierBase = modifiers.base
                    }
                    return constant
                }
            }
            var exporter = TokenExporter()
            let generic = try constants(base)
            let roots = TokenRoots.read(themeFolder: theme)
            let numbers = TokenRoots.numbers(themeFolder: theme)
            var files: [(String, JSONValue)] = [(output, exporter.document(generic, roots: roots, numbers: numbers))]
            var dropped: [String] = []
            if let resolver {
                guard let variants = workspace.variants(ofThemeAt: theme).value else {
                    printer.print(workspace.variants(ofThemeAt: theme).diagnostics)
                    throw ExitCode.failure
                }
                var layers: [(traits: TraitSet, file: String)] = []
                let stem = (output as NSString).deletingPathExtension
                let known = Set(generic)
                var differences: [(traits: TraitSet, constants: [ExportedConstant])] = []
                for traits in variants.axes.traitSets where traits != .none {
                    let differing = try constants(traits).filter { !known.contains($0) }
                    if !differing.isEmpty { differences.append((traits, differing)) }
                }
                // the one-tag layers, in layer order: a combination they give together is no loss
                let single = differences.filter { variants.dimensions.tags(of: $0.traits).count == 1 }
                    .sorted { $0.traits.specificity < $1.traits.specificity }
                for (traits, differing) in differences {
                    let tags = variants.dimensions.tags(of: traits)
                    guard tags.count == 1 else {
                        var together: [String: ExportedConstant] = [:]
                        for layer in single where layer.traits.applies(in: traits) {
                            for constant in layer.constants { together[constant.name] = constant }
                        }
                        if Set(together.values) != Set(differing) { dropped.append(tags.joined(separator: ",")) }
                        continue
                    }
                    let file = stem + "~" + tags[0] + ".json"
                    var layerExporter = TokenExporter()
                    files.append(
                        (file, layerExporter.document(differing, elsewhere: generic, roots: roots, numbers: numbers)))
                    layers.append((traits, (file as NSString).lastPathComponent))
                }
                files.append(
                    (
                        resolver,
                        TokenExporter.resolver(
                            name: variants.info.name, baseFile: (output as NSString).lastPathComponent, layers: layers,
                            dimensions: variants.dimensions)
                    ))
            }
            var diagnostics: [Diagnostic] = []
            if let skipped = exporter.skippedWarning { diagnostics.append(skipped) }
            if !dropped.isEmpty {
                diagnostics.append(
                    .warning(
                        .tokenSkipped,
                        "layers for combined traits (\(dropped.joined(separator: "; "))) have no single resolver context and were not exported",
                        at: SourceLocation(file: theme)))
            }
            for (path, document) in files {
                do {
                    try Data((document.rendered() + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    printer.print(
                        diagnostics + [
                            .error(
                                .tokensWriteFailed, "cannot write: \(error.localizedDescription)",
                                at: SourceLocation(file: path))
                        ])
                    throw ExitCode.failure
                }
            }
            printer.print(diagnostics)
        }
    }
}
