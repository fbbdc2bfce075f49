// `tokens import`: token files, or a resolver's combinations of contexts, to the layers of a theme.
import LiveryModel

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
            diagnostics.append(
                .error(
                    .tokenResolver, "cannot read the tokens file '\(path)'", at: location ?? SourceLocation(file: path))
            )
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
    public mutating func layers(files: [String], baseName: String = "Tokens") -> [(
        fileName: String, constants: [ThemeConstant]
    )] {
        let sources = files.compactMap { load($0, at: nil) }
        guard sources.count == files.count else { return [] }
        return [(baseName + ".xml", resolve(sources))]
    }

    /// Every combination of the resolver's contexts, as layered files: the default combination is
    /// `Tokens.xml`; each other combination's file holds only the constants that differ from what
    /// the less specific layers already give (Livery layers them by specificity, section 3).
    public mutating func layers(
        resolver: ResolverDocument, map: ContextMap, directory: String,
        baseName: String = "Tokens"
    ) -> [(fileName: String, constants: [ThemeConstant])] {
        guard let combinations = combinations(of: resolver, map: map) else { return [] }
        var byTraits: [TraitSet: [ThemeConstant]] = [:]
        for combination in combinations {
            var traits = TraitSet.none
            for choice in combination {
                guard let merged = Self.union(traits, choice.traits) else {
                    diagnostics.append(
                        .error(
                            .tokenResolver,
                            "contexts \(combination.map { "\($0.modifier):\($0.context)" }.joined(separator: " and ")) map to two values of one trait dimension",
                            at: SourceLocation(file: resolver.file)))
                    return []
                }
                traits = merged
            }
            guard let sources = sources(of: combination, in: resolver, directory: directory) else { return [] }
            if byTraits[traits] != nil {
                diagnostics.append(
                    .error(
                        .tokenResolver,
                        "two combinations of contexts map to the same qualifiers (\(map.dimensions.description(of: traits))); map them apart with --map",
                        at: SourceLocation(file: resolver.file)))
                return []
            }
            byTraits[traits] = resolve(sources)
        }
        guard let generic = byTraits[TraitSet.none] else { return [] }
        return Self.layered(byTraits, generic: generic, dimensions: map.dimensions, baseName: baseName)
    }

    /// One context of each modifier, and the qualifiers it maps to.
    private typealias Combination = [(modifier: String, context: String, traits: TraitSet)]

    /// Every combination of one context per modifier; nil, with the errors reported, when there are
    /// more than `maxCombinations` or a context maps to no qualifier.
    private mutating func combinations(of resolver: ResolverDocument, map: ContextMap) -> [Combination]? {
        // Each combination of contexts becomes one qualified layer, and Livery's qualifiers tell at
        // most `maxCombinations` apart: more is refused before any is built.
        var count = 1
        for modifier in resolver.modifiers {
            count = count.multipliedReportingOverflow(by: max(1, modifier.contexts.count)).partialValue
            if count > Self.maxCombinations || count < 0 {
                diagnostics.append(
                    .error(
                        .tokenResolver,
                        "the modifiers' contexts make more than \(Self.maxCombinations) combinations; each must map to its own qualifiers, and there are not that many",
                        at: modifier.location))
                return nil
            }
        }
        var choices: [Combination] = [[]]
        for modifier in resolver.modifiers {
            var options: [(String, String, TraitSet)] = []
            for context in modifier.contexts {
                guard let traits = map.traits(modifier: modifier, context: context.name) else {
                    diagnostics.append(
                        .error(
                            .tokenResolver,
                            "context '\(context.name)' of modifier '\(modifier.name)' maps to no qualifier; add --map \(modifier.name):\(context.name)=QUALIFIER (e.g. dark, highcontrast, ipad~dark or none)",
                            at: modifier.location))
                    continue
                }
                options.append((modifier.name, context.name, traits))
            }
            choices = choices.flatMap { chosen in options.map { chosen + [$0] } }
        }
        guard !diagnostics.hasErrors else { return nil }
        return choices
    }

    /// The sources of one combination in resolution order: each set's, and each modifier's for
    /// the context chosen; nil, with the error reported, when a file cannot be read.
    private mutating func sources(
        of combination: Combination, in resolver: ResolverDocument, directory: String
    ) -> [TokenSource]? {
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
                    guard let loaded = load(Self.join(directory, path), at: location) else { return nil }
                    sources.append(loaded)
                case .inline(let node):
                    sources.append(TokenSource(file: resolver.file, root: node))
                }
            }
        }
        return sources
    }

    /// The generic layer, then each qualified one, least specific first, with only the constants
    /// that differ from what the layers it is applied over give.
    private static func layered(
        _ byTraits: [TraitSet: [ThemeConstant]], generic: [ThemeConstant], dimensions: TraitDimensions,
        baseName: String
    ) -> [(fileName: String, constants: [ThemeConstant])] {
        var layers = [(baseName + ".xml", generic)]
        let ordered = byTraits.keys.filter { $0 != TraitSet.none }.sorted {
            ($0.specificity, dimensions.tags(of: $0).joined()) < (
                $1.specificity, dimensions.tags(of: $1).joined()
            )
        }
        var written: [TraitSet: [ThemeConstant]] = [TraitSet.none: generic]
        for traits in ordered {
            var effective: [String: ThemeConstant] = [:]
            let below = written.keys.filter { $0 != traits && $0.applies(in: traits) }.sorted {
                $0.specificity < $1.specificity
            }
            for layer in below { for constant in written[layer] ?? [] { effective[constant.name] = constant } }
            let differing = (byTraits[traits] ?? []).filter { constant in
                effective[constant.name].map { $0.type != constant.type || $0.content != constant.content } ?? true
            }
            written[traits] = differing
            if !differing.isEmpty {
                layers.append(
                    (baseName + "~" + dimensions.tags(of: traits).joined(separator: "~") + ".xml", differing))
            }
        }
        return layers
    }

    /// More combinations of contexts than anyone writes by hand.
    public static let maxCombinations = 256

    /// The trait set of two contexts together, or nil when both set one dimension (any
    /// dimension of the table, app-defined ones included).
    static func union(_ a: TraitSet, _ b: TraitSet) -> TraitSet? {
        var merged = a
        for dimension in 0..<TraitSet.capacity {
            guard let value = b[dimension] else { continue }
            if a[dimension] != nil { return nil }
            merged[dimension] = value
        }
        return merged
    }

    static func join(_ directory: String, _ path: String) -> String {
        path.hasPrefix("/") || directory.isEmpty
            ? path : (directory.hasSuffix("/") ? directory + path : directory + "/" + path)
    }

    /// The warning that lists every token skipped for want of a Livery type (one finding).
    public var skippedWarning: Diagnostic? {
        guard !importer.skipped.isEmpty else { return nil }
        var byType: [String: [String]] = [:]
        for (type, path) in importer.skipped where !(byType[type]?.contains(path) ?? false) {
            byType[type, default: []].append(path)
        }
        let list = byType.keys.sorted().map { "\($0) (\(byType[$0]!.joined(separator: ", ")))" }.joined(separator: "; ")
        return .warning(.tokenSkipped, "skipped tokens of types Livery has no constant for: \(list)", at: nil)
    }
}
