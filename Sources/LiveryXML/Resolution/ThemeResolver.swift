import LiveryModel

/// Resolves a chain of themes (root first) for trait sets, by the rules of section 4 of the
/// format, checking every operation against the schema on the way.
///
/// One resolver serves many trait sets: checks that do not depend on traits run once, and
/// findings are collected across trait sets (a problem seen in several is reported once).
final class ThemeResolver {
    let chain: [DecodedThemeFolder]
    let schema: Schema
    /// The dimensions of the chain (its last folder's): the standard ones and those declared.
    var dimensions: TraitDimensions { chain.last?.dimensions ?? .standard }
    let assets: AssetCatalog
    /// Instance resolutions to reuse across trait sets.
    let memo: ResolutionMemo
    /// Instance resolutions reused rather than resolved again.
    private(set) var reuses = 0
    /// Every finding reported, in order, and whether it was seen with a pass's trait set: what
    /// a reading reported is the slice of it reported meanwhile (see `ResolutionReads.findings`).
    private(set) var findingLog: [ResolutionReads.Finding] = []

    private(set) var diagnostics: [Diagnostic] = []
    /// Set by validation (not by resolving one trait set for an app): the contrast checks.
    var contrast: ContrastCheck?
    /// Values given for overridable constants (format 1.3, section 9.2): each replaces the
    /// constant's final value where the theme has an overridable constant of that name and
    /// type. Resolutions are not reused while there are any.
    var constantOverrides: [String: Value] = [:]
    /// Set to record, per trait set, the params that follow overridable constants
    /// (`choiceUses`): what a theme keeps for its personal choices (ChoiceExtraction.swift).
    var collectsChoices = false
    var choiceUses: [TraitSet: [ChoiceUse]] = [:]
    private var reported: Set<Diagnostic> = []
    /// The trait sets each finding of a resolution pass was seen with, so a finding repeated
    /// across trait sets stays one finding, with the trait sets in a note.
    private(set) var traitSets: [Diagnostic: Set<TraitSet>] = [:]
    /// Every trait set resolved so far.
    private(set) var resolvedTraitSets: Set<TraitSet> = []
    /// True when a configuration file of the chain could not be read (an XML syntax error, say):
    /// its definitions are unknown, so findings that depend on them (an unused constant, an
    /// unknown reference) would be guesses and are not reported.
    let incomplete: Bool
    /// Constants that are defined but whose value is broken (reported where they are), by name.
    let brokenConstants: Set<String>
    let brokenClasses: Set<String>
    private var referencedConstants: Set<String> = []
    private var referencedClasses: Set<String> = []
    private var referencedAssets: Set<String> = []
    /// Assets, constants and classes offered as the did-you-mean of a missing one: their being
    /// unused is the same cause.
    private var suggestedAssets: Set<String> = []
    private var suggestedConstants: Set<String> = []
    private var suggestedClasses: Set<String> = []
    /// Schema checks already done: per component, indexed by operation serial.
    private var checked: [String: CheckTable] = [:]
    /// Per own operation that overrode another: true while it has set the same value every time.
    private var redundant: [Int: (Bool, OperationSyntax)] = [:]
    /// Every configuration file of the chain, root first: the layers a pass picks from.
    private(set) lazy var files: [ConfigurationFile] = chain.flatMap(\.files)
    /// Every instance id of the chain, sorted, with its definitions in layer order (each with
    /// its index in `files`): the order every pass resolves in, sorted once, not per trait set.
    private(set) lazy var instances: [(id: String, definitions: [(layer: Int, syntax: InstanceSyntax)])] = {
        var byID: [String: [(layer: Int, syntax: InstanceSyntax)]] = [:]
        for (layer, file) in files.enumerated() {
            for instance in file.instances { byID[instance.id, default: []].append((layer, instance)) }
        }
        return byID.keys.sorted().map { ($0, byID[$0]!) }
    }()

    private enum CheckResult { case unchecked, valid, invalid }

    /// A class, so results are written in place rather than through a copied array.
    private final class CheckTable {
        var results: [CheckResult]
        init(count: Int) { results = Array(repeating: .unchecked, count: count) }
    }
    /// Operations in the chain: the size of per-operation caches, indexed by `slot(of:)`.
    let serialCount: Int
    /// Each folder's serials and where they start among the slots: serials are unique in a
    /// workspace, so they grow with the themes it has read, while a chain's slots do not.
    private let serialRanges: [(serials: Range<Int>, firstSlot: Int)]

    /// An operation's index in the per-operation caches, from 0 to `serialCount`.
    @inline(__always) func slot(of operation: OperationSyntax) -> Int {
        let serial = operation.serial
        for entry in serialRanges where entry.serials.contains(serial) {
            return serial - entry.serials.lowerBound + entry.firstSlot
        }
        preconditionFailure("operation \(operation.name) (serial \(serial)) is not from a folder of the chain")
    }
    /// Longest chain of constants referring to constants, or of classes including classes: each
    /// link is a nested call, so a hostile chain of thousands would overflow the stack.
    var maxReferenceDepth = FrontEndLimits.default.maxReferenceDepth
    /// Where a theme that inherits from the theme of a reference's file defines the constant it
    /// names (given the name and the reference's place), asked only for a reference this chain
    /// cannot resolve: a parent cannot see its children's definitions, and the finding says so.
    var definitionBelow: ((String, SourceLocation) -> ConstantBelow?)?

    /// A constant defined by a theme below the one that references it.
    struct ConstantBelow {
        /// The folder name of the theme that defines it.
        var theme: String
        var location: SourceLocation
        /// The definition moved up into the referencing theme, where that is certain.
        var fix: Diagnostic.Fix?
    }
    /// "Did you mean" hints left: each compares a name with up to `Suggestions.maxCandidates`
    /// names, so a theme with thousands of unknown references gets hints for the first ones only.
    private var suggestionsLeft = 200

    func suggestion(_ name: String, in candidates: some Sequence<String>) -> (hint: String, fix: Diagnostic.Fix?) {
        guard suggestionsLeft > 0 else { return ("", nil) }
        suggestionsLeft -= 1
        return Suggestions.suggest(name, in: candidates)
    }

    init(chain: [DecodedThemeFolder], schema: Schema, reusingResolutions: Bool = true) {
        self.chain = chain
        self.schema = schema
        self.memo = ResolutionMemo(enabled: reusingResolutions)
        self.assets = AssetCatalog(
            searchOrder: chain.reversed().compactMap(\.info?.id),
            variants: chain.flatMap(\.assets))
        var ranges: [(serials: Range<Int>, firstSlot: Int)] = []
        var count = 0
        for theme in chain {
            ranges.append((theme.serials, count))
            count += theme.serials.count
        }
        self.serialRanges = ranges
        self.serialCount = count
        self.incomplete = chain.contains { !$0.unreadFiles.isEmpty || $0.files.contains(where: \.incomplete) }
        self.brokenConstants = Set(chain.flatMap(\.files).flatMap(\.brokenConstants))
        self.brokenClasses = Set(chain.flatMap(\.files).flatMap(\.brokenClasses))
    }

    /// The trait values the chain's configuration files distinguish.
    var axes: TraitAxes {
        var axes = TraitAxes()
        for theme in chain {
            for file in theme.files { axes.insert(file.qualifiers) }
        }
        return axes
    }

    /// Codes whose findings are guesses while a file of the chain cannot be read.
    static let guessesWhenIncomplete: Set<DiagnosticCode> = [
        .referenceUnknown, .classUnknown, .constantUnused, .classUnused, .assetUnused, .overrideRedundant,
        // an unread file may be the schema that declares the component
        .componentUnknown,
    ]

    func report(_ diagnostic: Diagnostic, traits: TraitSet? = nil) {
        findingLog.append(.init(diagnostic: diagnostic, withTraits: traits != nil))
        if incomplete, Self.guessesWhenIncomplete.contains(diagnostic.code) { return }
        if let traits { traitSets[diagnostic, default: []].insert(traits) }
        if reported.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
    }

    /// The findings so far, each seen in only some of the resolved trait sets carrying a note
    /// that names them.
    var notedDiagnostics: [Diagnostic] {
        diagnostics.map { diagnostic in
            guard let sets = traitSets[diagnostic], !resolvedTraitSets.isSubset(of: sets) else { return diagnostic }
            return Self.noting(sets, on: diagnostic, dimensions: dimensions)
        }
    }

    /// `diagnostic` with a note naming the trait sets it was seen with.
    static func noting(
        _ sets: Set<TraitSet>, on diagnostic: Diagnostic, dimensions: TraitDimensions = .standard
    ) -> Diagnostic {
        var noted = diagnostic
        let names = sets.map { dimensions.tags(of: $0) }.sorted {
            ($0.count, $0.joined(separator: ",")) < ($1.count, $1.joined(separator: ","))
        }
        .map { $0.isEmpty ? "no traits" : $0.joined(separator: ",") }
        noted.notes.append(
            Diagnostic.Note("only with \(names.count == 1 ? "" : "each of ")\(names.joined(separator: "; "))"))
        return noted
    }

    /// The instances for one trait set, sorted by id.
    func resolve(_ traits: TraitSet) -> [ResolvedInstance] {
        resolvedTraitSets.insert(traits)
        var pass = Pass(resolver: self, traits: traits)
        return pass.run()
    }

    /// Findings that need every trait set seen first: unused definitions, redundant overrides.
    func finish() {
        for finding in contrast?.diagnostics() ?? [] { report(finding) }
        for (isRedundant, operation) in redundant.values where isRedundant {
            report(
                .warning(
                    .overrideRedundant, "operation '\(operation.name)' sets the value it already has; remove it",
                    at: operation.location))
        }
        let files = self.files
        var mentioned = referencedConstants.union(files.flatMap(\.mentionedConstants)).union(suggestedConstants)
        var classes = referencedClasses.union(files.flatMap(\.mentionedClasses)).union(suggestedClasses)
        mentioned.formUnion(Self.meant(by: mentioned, among: Set(files.flatMap(\.constants).map(\.name))))
        classes.formUnion(
            Self.meant(
                by: classes.union(files.flatMap(\.instances).flatMap(\.classes)),
                among: Set(files.flatMap(\.classes).map(\.name))))
        let assets = referencedAssets.union(files.flatMap(\.mentionedAssets)).union(suggestedAssets)
        for theme in chain {
            for file in theme.files {
                for constant in file.constants where !mentioned.contains(constant.name) {
                    report(
                        .warning(
                            .constantUnused,
                            "constant '\(constant.name)' is never referenced; remove it or use it with ref=\"\(constant.name)\"",
                            at: constant.location))
                }
                for definition in file.classes where !classes.contains(definition.name) {
                    report(
                        .warning(
                            .classUnused,
                            "class '\(definition.name)' is never used; remove it or add it to an instance's class attribute",
                            at: definition.location))
                }
            }
            for asset in theme.assets where !assets.contains(asset.name) {
                report(
                    .warning(
                        .assetUnused,
                        "asset '\(asset.name)' is never used by an <image>; remove the file or reference it",
                        at: SourceLocation(file: FileSystem.join(theme.path, asset.file))))
            }
        }
    }

    /// The defined names that names mentioned but not defined were meant as (their nearest
    /// spelling): a misspelled use in a file no trait set resolves (an overridden class) still
    /// means its definition is used. Bounded like every suggestion.
    static func meant(by mentioned: Set<String>, among defined: Set<String>) -> Set<String> {
        var meant: Set<String> = []
        let candidates = defined.sorted()
        for name in mentioned.subtracting(defined).sorted().prefix(200) {
            if let close = Suggestions.closest(to: name, in: candidates) { meant.insert(close) }
        }
        return meant
    }

    /// Resolution for one trait set. Tables are built fresh for each: references bind late,
    /// against the final definitions of the whole chain for these traits.
    struct Pass {
        let resolver: ThemeResolver
        let traits: TraitSet
        var constants: [String: ConstantSyntax] = [:]
        var classes: [String: ClassSyntax] = [:]
        var constantValues: [String: Value?] = [:]
        /// Constants some definition of the chain marks `overridable="true"` (format 1.3, 9.2).
        var overridable: Set<String> = []
        var resolvingConstants: [String] = []
        var classOperations: [String: [OperationSyntax]] = [:]
        var resolvingClasses: [String] = []
        /// Per operation serial: not yet resolved (nil), failed (.some(nil)) or the params.
        var resolvedParams: [[Param]??]
        /// What the instance being resolved has read so far (see `ResolutionMemo`).
        var reads = ResolutionReads()
        /// What each resolved constant, class and operation's params read, for an instance that
        /// finds them resolved already: per name, and per operation slot.
        var constantReads: [String: ResolutionReads] = [:]
        var classReads: [String: ResolutionReads] = [:]
        var paramReads: [ResolutionReads?]

        /// Reports a finding of this pass, remembering the trait set it was seen with.
        func report(_ diagnostic: Diagnostic) {
            resolver.report(diagnostic, traits: traits)
        }

        init(resolver: ThemeResolver, traits: TraitSet) {
            self.resolver = resolver
            self.traits = traits
            self.resolvedParams = Array(repeating: nil, count: resolver.serialCount)
            self.paramReads = Array(repeating: nil, count: resolver.serialCount)
        }

        var layers: [ConfigurationFile] {
            resolver.files.filter { $0.qualifiers.applies(in: traits) }
        }

        mutating func run() -> [ResolvedInstance] {
            fillTables(reporting: true) { _ in }
            applyOverrides()
            // Constants are checked even when nothing references them, so a broken one is reported.
            for name in constants.keys.sorted() { _ = constantValue(name) }
            let applies = resolver.files.map { $0.qualifiers.applies(in: traits) }
            var resolved: [ResolvedInstance] = []
            for (_, all) in resolver.instances {
                let definitions = all.compactMap { applies[$0.layer] ? $0.syntax : nil }
                if !definitions.isEmpty, let instance = resolveInstance(definitions) { resolved.append(instance) }
            }
            return resolved
        }

        /// Fills the tables from the layers that apply: the final definition of each constant
        /// and class for these traits (a redefinition that changes a constant's type is skipped,
        /// and reported when `reporting`); hands each instance definition to `each`, in layer
        /// order. `run()` and explanations of one instance start from the same tables.
        mutating func fillTables(reporting: Bool, each: (InstanceSyntax) -> Void) {
            for file in layers {
                for constant in file.constants {
                    if let earlier = constants[constant.name], earlier.object.type != constant.object.type {
                        guard reporting else { continue }
                        report(
                            .error(
                                .constantTypeChange,
                                "constant '\(constant.name)' is \(Phrasing.a(earlier.object.type.rawValue)) (at \(earlier.location)); a redefinition must keep its type, not make it \(Phrasing.a(constant.object.type.rawValue))",
                                at: constant.location))
                        continue
                    }
                    if let flag = constant.overridable {
                        if flag {
                            overridable.insert(constant.name)
                        } else if overridable.contains(constant.name), reporting {
                            report(
                                .error(
                                    .attributeInvalid,
                                    "constant '\(constant.name)' is overridable (an earlier definition says so); a later definition cannot take that back: remove overridable=\"false\"",
                                    at: constant.mark.attributeLocation("overridable")))
                        }
                    }
                    constants[constant.name] = constant
                }
                for definition in file.classes { classes[definition.name] = definition }
                for instance in file.instances { each(instance) }
            }
        }

        /// Puts the given values in place of the final values of the overridable constants they
        /// name, before anything refers to them; a value for another name or type is ignored.
        mutating func applyOverrides() {
            for (name, value) in resolver.constantOverrides
            where overridable.contains(name) && constants[name]?.object.type == value.type {
                constantValues[name] = .some(value)
            }
        }

        /// The instance as resolved for another trait set when every definition it read is the
        /// same, else resolved afresh.
        mutating func resolveInstance(_ definitions: [InstanceSyntax]) -> ResolvedInstance? {
            guard resolver.constantOverrides.isEmpty else {
                reads = ResolutionReads()
                return resolveAfresh(definitions)?.0
            }
            for entry in resolver.memo.entries(for: definitions) where holds(entry.reads) {
                reuse(entry)
                if resolver.collectsChoices { recordChoices(entry.instance, sources: entry.sources) }
                return entry.instance
            }
            reads = ResolutionReads()
            let logged = resolver.findingLog.count
            guard let (instance, sources, contrast) = resolveAfresh(definitions) else { return nil }
            if resolver.collectsChoices { recordChoices(instance, sources: sources) }
            var mine = reads
            mine.findings += resolver.findingLog[logged...]
            if mine.clean {
                resolver.memo.insert(
                    ResolutionMemo.Entry(
                        definitions: definitions, reads: mine.distinct, instance: instance, sources: sources,
                        contrast: contrast))
            }
            return instance
        }

        /// Whether every definition `reads` found is the one this pass finds.
        func holds(_ reads: ResolutionReads) -> Bool {
            reads.constants.allSatisfy { constants[$0.name] === $0.definition }
                && reads.classes.allSatisfy { classes[$0.name] === $0.definition }
                && reads.assets.allSatisfy { resolver.assets.contains($0, traits: traits) }
        }

        /// What resolving the entry's instance did besides its value that depends on the trait
        /// set: checking its contrast. (What it uses was marked, and its overrides noted, when it
        /// was resolved: reusing it marks and notes the same.)
        mutating func reuse(_ entry: ResolutionMemo.Entry) {
            resolver.reuses += 1
            for finding in entry.reads.findings {
                resolver.report(finding.diagnostic, traits: finding.withTraits ? traits : nil)
            }
            resolver.contrast?.check(entry.instance, pairs: entry.contrast, sources: entry.sources, traits: traits)
            checkGuards(entry.instance, pairs: entry.contrast, sources: entry.sources)
        }

        /// The instance, the syntax of its operations, and what the contrast check measures.
        mutating func resolveAfresh(_ definitions: [InstanceSyntax]) -> (
            ResolvedInstance, [OperationSyntax], ContrastCheck.Pairs
        )? {
            // A definition with an unknown component type is the one finding: the others are
            // resolved with the type they agree on, and are not reported as mismatching it.
            let schema = resolver.schema
            let first = definitions.first { schema.components[$0.component] != nil } ?? definitions[0]
            let component = first.component
            var knownComponent = schema.components[component] != nil
            var operations = OperationList<OperationSyntax>()
            var visited: [OperationSyntax] = []
            for definition in definitions {
                if schema.components[definition.component] == nil {
                    knownComponent = knownComponent && definition.component != component
                    let (hint, fix) = resolver.suggestion(definition.component, in: schema.components.keys)
                    report(
                        .error(
                            .componentUnknown,
                            "unknown component type '\(definition.component)'\(hint.isEmpty ? "; declare it in a schema file (<components>) or use a standard one such as uiview" : hint)",
                            at: definition.location, fix: fix.map { resolver.renamingElement(definition, $0) }))
                    visitIgnoringErrors(definition)
                    continue
                }
                guard definition.component == component else {
                    report(
                        .error(
                            .instanceComponentMismatch,
                            "instance '\(definition.id)' is \(Phrasing.a(component)) (at \(first.location)) but \(Phrasing.a(definition.component)) here; an identifier has one component type everywhere",
                            at: definition.location))
                    visitIgnoringErrors(definition)
                    continue
                }
                for name in definition.classes {
                    let inherited = effectiveOperations(ofClass: name, usedAt: definition.classLocation)
                    operations.add(contentsOf: inherited, identity: \.identity)
                    visited += inherited
                }
                visited += definition.operations
                for operation in definition.operations {
                    let replaced = operations.add(operation, identity: operation.identity)
                    noteOverride(operation, replaced: replaced)
                }
            }
            guard knownComponent else { return nil }
            // Every occurrence is checked, including ones a later layer overrides: a typo must not
            // hide behind an override. Results are cached, so the effective ones cost nothing more.
            for operation in visited {
                if !resolver.check(operation, component: component) {
                    // a param of the wrong type (a string for an image) still names what it meant
                    for param in operation.params {
                        if case .literal(.string(let text)) = param.object.content {
                            resolver.referencedAssets.insert(text)
                        }
                    }
                }
                _ = params(of: operation, component: component)
            }
            var resolved: [ResolvedOperation] = []
            var sources: [OperationSyntax] = []
            for operation in operations.elements {
                guard resolver.check(operation, component: component),
                    let params = params(of: operation, component: component)
                else {
                    continue
                }
                resolved.append(ResolvedOperation(name: operation.name, state: operation.state, params: params))
                sources.append(operation)
            }
            let instance = ResolvedInstance(id: first.id, component: component, operations: resolved)
            let contrast = ContrastCheck.pairs(of: instance, schema: schema)
            resolver.contrast?.check(instance, pairs: contrast, sources: sources, traits: traits)
            checkGuards(instance, pairs: contrast, sources: sources)
            return (instance, sources, contrast)
        }

        /// Marks what a definition that cannot be resolved uses (classes, constants, assets) as
        /// used: the definition is the one finding, not what it would have used.
        mutating func visitIgnoringErrors(_ definition: InstanceSyntax) {
            for name in definition.classes where classes[name] != nil { resolver.referencedClasses.insert(name) }
            for operation in definition.operations {
                for param in operation.params { markUses(param.object) }
            }
        }

        mutating func markUses(_ object: TypedObject) {
            switch object.content {
            case .literal(.image(let image)): resolver.referencedAssets.insert(image.name)
            case .literal: break
            case .array(let items): for item in items { markUses(item) }
            case .reference(let name): resolver.referencedConstants.insert(name)
            case .derived(let derived):
                markUses(derived.base)
                for name in derived.modifiers.namedConstants { resolver.referencedConstants.insert(name) }
            }
        }

        /// Tracks whether an instance's own operation only repeats the value it overrides.
        mutating func noteOverride(_ operation: OperationSyntax, replaced: OperationSyntax?) {
            var same = false
            if let replaced, replaced.serial != operation.serial,
                let old = paramsIgnoringErrors(replaced), let new = paramsIgnoringErrors(operation)
            {
                same = old == new
            }
            let previous = resolver.redundant[operation.serial]?.0 ?? true
            resolver.redundant[operation.serial] = (previous && same, operation)
        }

        private mutating func paramsIgnoringErrors(_ operation: OperationSyntax) -> [Param]? {
            if let cached = resolvedParams[resolver.slot(of: operation)] { return cached }
            var values: [Param] = []
            for param in operation.params {
                guard let value = value(of: param.object) else { return nil }
                values.append(Param(name: param.name, value: value))
            }
            return values.sorted { $0.name < $1.name }
        }

        mutating func effectiveOperations(ofClass name: String, usedAt location: @autoclosure () -> SourceLocation)
            -> [OperationSyntax]
        {
            guard let definition = classes[name] else {
                reads.clean = false
                if resolver.brokenClasses.contains(name) { return [] }
                let (hint, fix) = resolver.suggestion(name, in: classes.keys)
                if let fix { resolver.suggestedClasses.insert(fix.replacement) }
                report(
                    .error(
                        .classUnknown, "unknown class '\(name)'\(hint.isEmpty ? "; define it in <classes>" : hint)",
                        at: location(), fix: fix))
                return []
            }
            resolver.referencedClasses.insert(name)
            reads.classes.append((name, definition))
            if let cached = classOperations[name] {
                if let known = classReads[name] { reads.formUnion(known) }
                return cached
            }
            if let start = resolvingClasses.firstIndex(of: name) {
                let cycle = (resolvingClasses[start...] + [name]).joined(separator: " -> ")
                report(.error(.classCycle, "class '\(name)' includes itself: \(cycle)", at: definition.location))
                return []
            }
            guard resolvingClasses.count < resolver.maxReferenceDepth else {
                report(
                    .error(
                        .limitExceeded,
                        "class '\(name)' is included through more than \(resolver.maxReferenceDepth) classes; shorten the chain",
                        at: definition.location))
                return []
            }
            resolvingClasses.append(name)
            let outer = beginReading()
            var operations = OperationList<OperationSyntax>()
            for inner in definition.classes {
                operations.add(
                    contentsOf: effectiveOperations(ofClass: inner, usedAt: definition.location), identity: \.identity)
            }
            operations.add(contentsOf: definition.operations, identity: \.identity)
            classReads[name] = endReading(outer)
            resolvingClasses.removeLast()
            classOperations[name] = operations.elements
            return operations.elements
        }

        mutating func params(of operation: OperationSyntax, component: String) -> [Param]? {
            let slot = resolver.slot(of: operation)
            if let cached = resolvedParams[slot] {
                if let known = paramReads[slot] { reads.formUnion(known) }
                return cached
            }
            let outer = beginReading()
            defer { paramReads[slot] = endReading(outer) }
            let signature = resolver.schema.operation(operation.name, of: component)
            var result: [Param]? = []
            for param in operation.params {
                guard let value = value(of: param.object),
                    checkValue(
                        value, of: param, signature: signature?.params.first { $0.name == param.name },
                        operation: operation)
                else {
                    result = nil
                    continue
                }
                result?.append(Param(name: param.name, value: value))
            }
            resolvedParams[slot] = result
            return result
        }

        /// Starts recording the reads of one constant, class or operation on their own:
        /// returns the reads so far, for `endReading`.
        mutating func beginReading() -> (reads: ResolutionReads, logged: Int) {
            let outer = (reads, resolver.findingLog.count)
            reads = ResolutionReads()
            return outer
        }

        /// The reads since `beginReading`, with the findings reported meanwhile, added to the
        /// outer ones, which are current again. (The outer reading's log slice holds those
        /// findings already, so only findings this one took from the cache are added to it.)
        mutating func endReading(_ outer: (reads: ResolutionReads, logged: Int)) -> ResolutionReads {
            var mine = reads
            reads = outer.reads
            reads.formUnion(mine)
            mine.findings += resolver.findingLog[outer.logged...]
            return mine
        }

        /// Checks that need the resolved value: enum values, array element types, assets.
        mutating func checkValue(
            _ value: Value, of param: ParamSyntax, signature: ParamSchema?, operation: OperationSyntax
        ) -> Bool {
            var valid = true
            if case .enumeration(let text) = value, let allowed = signature?.allowedValues, !allowed.contains(text) {
                let (hint, fix) = Suggestions.suggest(text, in: allowed)
                report(
                    .error(
                        .enumValue,
                        "'\(text)' is not a value of \(operation.name)'s \(param.name)\(hint.isEmpty ? "; use one of \(allowed.joined(separator: ", "))" : hint)",
                        at: param.object.valueLocation, fix: fix))
                valid = false
            }
            if case .array(let items) = value, let elementType = signature?.elementType,
                let wrong = items.first(where: { $0.type != elementType })
            {
                report(
                    .error(
                        .paramType,
                        "\(operation.name)'s \(param.name) is an array of \(elementType.rawValue), not of \(wrong.type.rawValue)",
                        at: param.object.location))
                valid = false
            }
            return valid && checkImages(in: value, at: param.object.mark)
        }

        /// The mark, not its location: a location is worked out only for a finding.
        mutating func checkImages(in value: Value, at mark: SourceMark) -> Bool {
            switch value {
            case .image(let image):
                resolver.referencedAssets.insert(image.name)
                guard resolver.assets.contains(image.name, traits: traits) else {
                    reads.clean = false
                    report(resolver.missingAsset(image.name, at: mark.location))
                    return false
                }
                reads.assets.append(image.name)
                return true
            case .array(let items):
                return items.reduce(true) { checkImages(in: $1, at: mark) && $0 }
            case .float, .integer, .bool, .string, .color, .point, .size, .rect, .insets, .font, .enumeration:
                return true
            }
        }

        mutating func value(of object: TypedObject) -> Value? {
            switch object.content {
            case .literal(let value):
                return value
            case .array(let items):
                var values: [Value] = []
                for item in items {
                    guard let value = value(of: item) else { return nil }
                    values.append(value)
                }
                return .array(values)
            case .reference(let name):
                return referencedValue(name, type: object.type, at: object.location)
            case .derived(let derived):
                return derivedColor(derived, at: object.mark)
            }
        }

        /// The value of the constant `name`, used as a `type` at `location`: unknown names,
        /// other types and cycles are reported there (format 2.1).
        mutating func referencedValue(_ name: String, type: ValueType, at location: @autoclosure () -> SourceLocation)
            -> Value?
        {
            resolver.referencedConstants.insert(name)
            guard let constant = constants[name] else {
                reads.clean = false
                // defined but broken: reported once, where it is broken
                if resolver.brokenConstants.contains(name) { return nil }
                let candidates = constants.values.lazy.filter { $0.object.type == type }.map(\.name)
                let (hint, fix) = resolver.suggestion(name, in: candidates)
                if let fix { resolver.suggestedConstants.insert(fix.replacement) }
                if hint.isEmpty, case let at = location(), let below = resolver.definitionBelow?(name, at) {
                    // Moving is the fix: every theme keeps the value it had. Copying is the other
                    // way, for a parent that should have a value of its own.
                    var finding = Diagnostic.error(
                        .referenceUnknown,
                        "unknown constant '\(name)': it is defined in \(below.theme), which inherits from this theme, and a parent cannot see its children's definitions; move its definition up into this theme's <constants> (every theme keeps the value it had), or copy it up with the value this theme should have",
                        at: at, fix: below.fix)
                    finding.notes.append(
                        Diagnostic.Note("'\(name)' is defined here, in \(below.theme)", at: below.location))
                    report(finding)
                    return nil
                }
                report(
                    .error(
                        .referenceUnknown,
                        "unknown constant '\(name)'\(hint.isEmpty ? "; define it in <constants>" : hint)",
                        at: location(), fix: fix))
                return nil
            }
            reads.constants.append((name, constant))
            guard constant.object.type == type else {
                report(
                    .error(
                        .referenceType,
                        "constant '\(name)' is \(Phrasing.a(constant.object.type.rawValue)) but is used as \(Phrasing.a(type.rawValue))",
                        at: location()))
                return nil
            }
            return constantValue(name)
        }

        /// A colour with modifiers (format 1.3, section 9.1): its base and the colours its
        /// modifiers name, looked up in this pass's final table, then the modifiers applied.
        mutating func derivedColor(_ derived: DerivedColorSyntax, at mark: SourceMark) -> Value? {
            guard let modifiers = colorModifiers(derived.modifiers, at: mark),
                case .color(let base)? = value(of: derived.base)
            else { return nil }
            let derivation = modifiers.derive(from: base)
            if !derivation.contrastReached, let rule = modifiers.contrast,
                case .contrast(_, _, let ratio, _)? = derivation.steps.last?.kind
            {
                report(
                    .warning(
                        .contrastUnreachable,
                        "no lightening or darkening in \(modifiers.space.rawValue) reaches \(ValueText.number(rule.minimumRatio)):1 against \(rule.background.hexString); the closest is \(derivation.color.hexString) at \(ContrastRatio.text(ratio, required: rule.minimumRatio)):1. Choose a base or background further apart, or lower min-ratio",
                        at: mark.attributeLocation("contrast-with")))
            }
            return .color(derivation.color)
        }

        /// The modifiers with their operands resolved, or nil (reported) when one cannot be.
        mutating func colorModifiers(_ syntax: ColorModifierSyntax, at mark: SourceMark) -> ColorModifiers? {
            func operand(_ operand: ColorOperand, attribute: String) -> Color? {
                switch operand {
                case .color(let color): return color
                case .constant(let name):
                    guard
                        case .color(let color)? = referencedValue(
                            name, type: .color, at: mark.attributeLocation(attribute))
                    else { return nil }
                    return color
                }
            }
            var modifiers = ColorModifiers(alpha: syntax.alpha, space: syntax.space)
            switch syntax.shift {
            case .lighten(let p)?: modifiers.shift = .lighten(p)
            case .darken(let p)?: modifiers.shift = .darken(p)
            case .mix(let other, let p)?:
                guard let color = operand(other, attribute: "mix") else { return nil }
                modifiers.shift = .mix(color, amount: p)
            case nil: break
            }
            if let (against, ratio) = syntax.contrast {
                guard let background = operand(against, attribute: "contrast-with") else { return nil }
                modifiers.contrast = .init(background: background, minimumRatio: ratio)
            }
            return modifiers
        }

        mutating func constantValue(_ name: String) -> Value? {
            if let cached = constantValues[name] {
                if let known = constantReads[name] { reads.formUnion(known) }
                return cached
            }
            guard let constant = constants[name] else { return nil }
            // A literal reads nothing (most constants are: the brands benchmark).
            if case .literal(let value) = constant.object.content {
                constantValues[name] = .some(value)
                return value
            }
            if let start = resolvingConstants.firstIndex(of: name) {
                let cycle = (resolvingConstants[start...] + [name]).joined(separator: " -> ")
                report(.error(.referenceCycle, "constant '\(name)' refers to itself: \(cycle)", at: constant.location))
                return nil
            }
            guard resolvingConstants.count < resolver.maxReferenceDepth else {
                report(
                    .error(
                        .limitExceeded,
                        "constant '\(name)' is reached through more than \(resolver.maxReferenceDepth) references; shorten the chain",
                        at: constant.location))
                return nil
            }
            resolvingConstants.append(name)
            let outer = beginReading()
            let value = value(of: constant.object)
            constantReads[name] = endReading(outer)
            resolvingConstants.removeLast()
            constantValues[name] = .some(value)
            return value
        }
    }

    /// `asset-missing` for a name no theme of the chain has for some trait set: the fix is to add
    /// the file to the theme whose configuration file names it, or to correct a typo when an
    /// asset of a close name exists.
    func missingAsset(_ name: String, at location: SourceLocation) -> Diagnostic {
        let names = Set(chain.flatMap(\.assets).map(\.name)).subtracting([name])
        if let fileName = DecodingContext.assetFileName(name), names.contains(fileName.asset) {
            suggestedAssets.insert(fileName.asset)
            return fileName.finding(at: location)
        }
        if let close = suggestionsLeft > 0 ? Suggestions.closest(to: name, in: names.sorted()) : nil {
            suggestionsLeft -= 1
            suggestedAssets.insert(close)
            return .error(
                .assetMissing, "no asset '\(name)'; did you mean '\(close)'?", at: location,
                fix: Diagnostic.Fix(replacing: name, with: close))
        }
        let owner =
            chain.last { location.file.hasPrefix($0.path + "/") }.map { FileSystem.lastComponent(of: $0.path) }
            ?? FileSystem.lastComponent(of: FileSystem.parent(of: location.file))
        return .error(.assetMissing, "no asset '\(name)': add assets/\(name).png to \(owner)", at: location)
    }

    /// A fix renaming an instance's element: its start tag and its end tag.
    func renamingElement(_ definition: InstanceSyntax, _ fix: Diagnostic.Fix) -> Diagnostic.Fix {
        var fix = fix
        if let end = EndTags.location(
            ofEndTagAt: Int(definition.mark.offset), named: definition.component, in: definition.mark.source)
        {
            fix.replace(at: [end])
        }
        return fix
    }

    /// Checks an operation against the component's schema, once per (operation, component).
    func check(_ operation: OperationSyntax, component: String) -> Bool {
        let table: CheckTable
        if let existing = checked[component] {
            table = existing
        } else {
            table = CheckTable(count: serialCount)
            checked[component] = table
        }
        let slot = slot(of: operation)
        switch table.results[slot] {
        case .valid: return true
        case .invalid: return false
        case .unchecked: break
        }
        let valid = SchemaChecker.check(operation, component: component, schema: schema, report: { report($0) })
        table.results[slot] = valid ? .valid : .invalid
        return valid
    }
}
