import Foundation
import LiveryModel

/// A DTCG resolver document (format 2025.10): sets of token sources, modifiers whose contexts
/// add sources, and the order they apply in. `tokens import --resolver` turns each modifier
/// context into a qualifier, and the token sets of each combination into layered files.
public struct ResolverDocument: Sendable {
    public enum Source: Sendable {
        /// A tokens file, relative to the resolver.
        case file(String, SourceLocation)
        /// Tokens written inline in the resolver.
        case inline(JSONNode)
    }

    public struct Modifier: Sendable {
        public var name: String
        public var contexts: [(name: String, sources: [Source])]
        public var defaultContext: String
        public var location: SourceLocation
    }

    public enum Step: Sendable {
        case set([Source])
        case modifier(Modifier)
    }

    public var file: String
    public var steps: [Step]
    public var modifiers: [Modifier] {
        steps.compactMap { if case .modifier(let modifier) = $0 { modifier } else { nil } }
    }

    /// Reads the resolver's structure; every problem is a located `token-resolver` error.
    public static func parse(_ source: TokenSource) -> (ResolverDocument?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let file = source.file
        func at(_ node: JSONNode) -> SourceLocation { SourceLocation(file: file, line: node.line, column: node.column) }
        func error(_ message: String, _ node: JSONNode) { diagnostics.append(.error(.tokenResolver, message, at: at(node))) }
        let root = source.root
        guard root.members != nil else {
            error("a resolver document is a JSON object, not \(root.kindName)", root)
            return (nil, diagnostics)
        }
        if root["version"]?.string != "2025.10" {
            error("the resolver's version must be \"2025.10\"", root["version"] ?? root)
        }
        func sources(_ node: JSONNode) -> [Source]? {
            guard let items = node.array else {
                error("sources are an array of {\"$ref\": \"file.json\"} or inline tokens, not \(node.kindName)", node)
                return nil
            }
            var result: [Source] = []
            for item in items {
                if let reference = item["$ref"] {
                    guard let path = reference.string, !path.isEmpty else {
                        error("$ref is a file path or #/sets/NAME", reference)
                        return nil
                    }
                    if path.hasPrefix("#/sets/") {
                        let name = String(path.dropFirst("#/sets/".count))
                        guard let set = root["sets"]?[name], let setSources = set["sources"].flatMap(sources) else {
                            error("'\(path)' names no set in this document", reference)
                            return nil
                        }
                        result += setSources
                    } else if path.hasPrefix("#") {
                        error("'\(path)' is not a set; sources may reference files or #/sets/NAME", reference)
                        return nil
                    } else {
                        result.append(.file(path, at(reference)))
                    }
                } else if item.members != nil {
                    result.append(.inline(item))
                } else {
                    error("a source is {\"$ref\": ...} or an object of tokens, not \(item.kindName)", item)
                    return nil
                }
            }
            return result
        }
        func modifier(_ name: String, _ node: JSONNode) -> Modifier? {
            guard let contexts = node["contexts"]?.members, contexts.count >= 2 else {
                error("modifier '\(name)' needs 'contexts', an object of at least two named source lists", node)
                return nil
            }
            var parsed: [(String, [Source])] = []
            for context in contexts {
                guard let list = sources(context.value) else { return nil }
                parsed.append((context.key, list))
            }
            let fallback = contexts[0].key
            var defaultContext = fallback
            if let given = node["default"] {
                guard let text = given.string, contexts.contains(where: { $0.key == text }) else {
                    error("modifier '\(name)': default must name one of its contexts (\(contexts.map(\.key).joined(separator: ", ")))", given)
                    return nil
                }
                defaultContext = text
            }
            return Modifier(name: name, contexts: parsed, defaultContext: defaultContext, location: at(node))
        }
        guard let order = root["resolutionOrder"]?.array, !order.isEmpty else {
            error("the resolver needs 'resolutionOrder', a non-empty array", root["resolutionOrder"] ?? root)
            return (nil, diagnostics)
        }
        var steps: [Step] = []
        for item in order {
            if let reference = item["$ref"]?.string {
                if reference.hasPrefix("#/sets/"), let set = root["sets"]?[String(reference.dropFirst(7))] {
                    guard let list = set["sources"].flatMap(sources) else { return (nil, diagnostics) }
                    steps.append(.set(list))
                } else if reference.hasPrefix("#/modifiers/"), let node = root["modifiers"]?[String(reference.dropFirst(12))] {
                    guard let parsed = modifier(String(reference.dropFirst(12)), node) else { return (nil, diagnostics) }
                    steps.append(.modifier(parsed))
                } else {
                    error("'\(reference)' names no set or modifier of this document", item)
                    return (nil, diagnostics)
                }
            } else if item["type"]?.string == "set", let list = item["sources"].flatMap(sources) {
                steps.append(.set(list))
            } else if item["type"]?.string == "modifier", let name = item["name"]?.string, let parsed = modifier(name, item) {
                steps.append(.modifier(parsed))
            } else {
                error("a resolutionOrder item is {\"$ref\": \"#/sets/...\"}, {\"$ref\": \"#/modifiers/...\"} or an inline set or modifier", item)
                return (nil, diagnostics)
            }
        }
        return (diagnostics.hasErrors ? nil : ResolverDocument(file: file, steps: steps), diagnostics)
    }
}

/// Which qualifier each modifier context stands for.
public struct ContextMap: Sendable {
    /// `modifier:context` to trait set, from `--map`.
    public var explicit: [String: TraitSet] = [:]

    public init(explicit: [String: TraitSet] = [:]) { self.explicit = explicit }

    /// Parses `--map modifier:context=qualifier` (qualifier: tags joined by `~`, or `none`).
    public static func parse(_ entries: [String]) throws(MapError) -> ContextMap {
        var map = ContextMap()
        for entry in entries {
            let halves = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard halves.count == 2, halves[0].contains(":") else { throw MapError(entry: entry) }
            let tags = halves[1].lowercased() == "none" ? [] : halves[1].split(separator: "~").map(String.init)
            guard let traits = try? TraitSet(tags: tags) else { throw MapError(entry: entry) }
            map.explicit[halves[0]] = traits
        }
        return map
    }

    public struct MapError: Error, Sendable { public var entry: String }

    /// The default context is the unqualified look; a context named like a qualifier (`dark`,
    /// `highcontrast`, `ipad`...; also `high-contrast`) maps to it; everything else needs `--map`.
    public func traits(modifier: ResolverDocument.Modifier, context: String) -> TraitSet? {
        if let given = explicit["\(modifier.name):\(context)"] { return given }
        if context == modifier.defaultContext { return TraitSet.none }
        switch context.lowercased() {
        case "high-contrast", "contrast-high", "more-contrast": return TraitSet(contrast: .highcontrast)
        default: return try? TraitSet(tags: [context])
        }
    }
}

/// `tokens import`: token files, or a resolver's combinations, to the layers of a theme.
public struct TokenImport {
    public var importer: TokenImporter
    public private(set) var diagnostics: [Diagnostic] = []
    /// Reads a tokens file by the path a resolver gives (relative to the resolver).
    let readFile: (String) -> [UInt8]?

    public init(options: TokenImporter.Options = .init(), readFile: @escaping (String) -> [UInt8]?) {
        self.importer = TokenImporter(options: options)
        self.readFile = readFile
    }

    private var cache: [String: TokenSource] = [:]

    private mutating func load(_ path: String, at location: SourceLocation?) -> TokenSource? {
        if let known = cache[path] { return known }
        guard let bytes = readFile(path) else {
            diagnostics.append(.error(.tokenResolver, "cannot read the tokens file '\(path)'", at: location ?? SourceLocation(file: path)))
            return nil
        }
        do {
            let source = try TokenSource.read(path, bytes: bytes)
            cache[path] = source
            return source
        } catch {
            diagnostics.append(error.diagnostic)
            return nil
        }
    }

    private mutating func resolve(_ sources: [TokenSource]) -> [ThemeConstant] {
        let (tokens, found) = TokenResolver.resolve(sources)
        diagnostics += found
        return importer.constants(of: tokens)
    }

    /// Plain files, merged in order, as one unqualified layer.
    public mutating func layers(files: [String], baseName: String = "Tokens") -> [(fileName: String, constants: [ThemeConstant])] {
        let sources = files.compactMap { load($0, at: nil) }
        guard sources.count == files.count else { return [] }
        return [(baseName + ".xml", resolve(sources))]
    }

    /// Every combination of the resolver's contexts, as layered files: the default combination is
    /// `Tokens.xml`; each other combination's file holds only the constants that differ from what
    /// the less specific layers already give (Livery layers them by specificity, section 3).
    public mutating func layers(resolver: ResolverDocument, map: ContextMap, directory: String,
                                baseName: String = "Tokens") -> [(fileName: String, constants: [ThemeConstant])] {
        var choices: [[(modifier: String, context: String, traits: TraitSet)]] = [[]]
        for modifier in resolver.modifiers {
            var options: [(String, String, TraitSet)] = []
            for context in modifier.contexts {
                guard let traits = map.traits(modifier: modifier, context: context.name) else {
                    diagnostics.append(.error(.tokenResolver,
                                              "context '\(context.name)' of modifier '\(modifier.name)' maps to no qualifier; add --map \(modifier.name):\(context.name)=QUALIFIER (e.g. dark, highcontrast, ipad~dark or none)",
                                              at: modifier.location))
                    continue
                }
                options.append((modifier.name, context.name, traits))
            }
            choices = choices.flatMap { chosen in options.map { chosen + [$0] } }
        }
        guard !diagnostics.hasErrors else { return [] }
        var byTraits: [TraitSet: [ThemeConstant]] = [:]
        for combination in choices {
            var traits = TraitSet.none
            for choice in combination {
                guard let merged = Self.union(traits, choice.traits) else {
                    diagnostics.append(.error(.tokenResolver, "contexts \(combination.map { "\($0.modifier):\($0.context)" }.joined(separator: " and ")) map to two values of one trait dimension",
                                              at: SourceLocation(file: resolver.file)))
                    return []
                }
                traits = merged
            }
            var sources: [TokenSource] = []
            for step in resolver.steps {
                let list: [ResolverDocument.Source]
                switch step {
                case .set(let given): list = given
                case .modifier(let modifier):
                    let chosen = combination.first { $0.modifier == modifier.name }?.context
                    list = modifier.contexts.first { $0.name == chosen }?.sources ?? []
                }
                for source in list {
                    switch source {
                    case .file(let path, let location):
                        guard let loaded = load(Self.join(directory, path), at: location) else { return [] }
                        sources.append(loaded)
                    case .inline(let node):
                        sources.append(TokenSource(file: resolver.file, root: node))
                    }
                }
            }
            if byTraits[traits] != nil {
                diagnostics.append(.error(.tokenResolver, "two combinations of contexts map to the same qualifiers (\(traits)); map them apart with --map",
                                          at: SourceLocation(file: resolver.file)))
                return []
            }
            byTraits[traits] = resolve(sources)
        }
        guard let generic = byTraits[TraitSet.none] else { return [] }
        var layers = [(baseName + ".xml", generic)]
        let ordered = byTraits.keys.filter { $0 != TraitSet.none }.sorted { ($0.specificity, $0.tags.joined()) < ($1.specificity, $1.tags.joined()) }
        var written: [TraitSet: [ThemeConstant]] = [TraitSet.none: generic]
        for traits in ordered {
            var effective: [String: ThemeConstant] = [:]
            let below = written.keys.filter { $0 != traits && $0.applies(in: traits) }.sorted { $0.specificity < $1.specificity }
            for layer in below { for constant in written[layer] ?? [] { effective[constant.name] = constant } }
            let differing = (byTraits[traits] ?? []).filter { constant in
                effective[constant.name].map { $0.type != constant.type || $0.content != constant.content } ?? true
            }
            written[traits] = differing
            if !differing.isEmpty { layers.append((baseName + "~" + traits.tags.joined(separator: "~") + ".xml", differing)) }
        }
        return layers
    }

    static func union(_ a: TraitSet, _ b: TraitSet) -> TraitSet? {
        if a.idiom != nil && b.idiom != nil || a.appearance != nil && b.appearance != nil || a.contrast != nil && b.contrast != nil { return nil }
        return TraitSet(idiom: a.idiom ?? b.idiom, appearance: a.appearance ?? b.appearance, contrast: a.contrast ?? b.contrast)
    }

    static func join(_ directory: String, _ path: String) -> String {
        path.hasPrefix("/") || directory.isEmpty ? path : (directory.hasSuffix("/") ? directory + path : directory + "/" + path)
    }

    /// The warning that lists every token skipped for want of a Livery type (one finding).
    public var skippedWarning: Diagnostic? {
        guard !importer.skipped.isEmpty else { return nil }
        var byType: [String: [String]] = [:]
        for (type, path) in importer.skipped where !(byType[type]?.contains(path) ?? false) { byType[type, default: []].append(path) }
        let list = byType.keys.sorted().map { "\($0) (\(byType[$0]!.joined(separator: ", ")))" }.joined(separator: "; ")
        return .warning(.tokenSkipped, "skipped tokens of types Livery has no constant for: \(list)", at: nil)
    }
}
