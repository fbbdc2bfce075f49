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
    var reuses = 0
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
    var referencedConstants: Set<String> = []
    var referencedClasses: Set<String> = []
    var referencedAssets: Set<String> = []
    /// Assets, constants and classes offered as the did-you-mean of a missing one: their being
    /// unused is the same cause.
    private var suggestedAssets: Set<String> = []
    var suggestedConstants: Set<String> = []
    var suggestedClasses: Set<String> = []
    /// What is known of the chain's operations, per component (`ComponentTable`).
    private var checked: [String: ComponentTable] = [:]
    /// Per operation slot, for an own operation that overrode another: true while it has set the
    /// same value every time.
    var redundant: [(Bool, OperationSyntax)?]
    /// Every configuration file of the chain, root first: the layers a pass picks from.
    private(set) lazy var files: [ConfigurationFile] = chain.flatMap(\.files)
    /// The chain's files as bits, for checking kept readings.
    lazy var layers = ChainLayers(files: files, constants: constantNames, classes: classNames)
    /// Every constant name the chain defines, sorted and numbered: the order a pass checks its
    /// constants in, and the numbers of its tables of them.
    private(set) lazy var constantNames = DefinitionNames(perFile: files.map { $0.constants.map(\.name) })
    /// Every class name the chain defines, sorted and numbered: the numbers of a pass's tables
    /// of classes.
    private(set) lazy var classNames = DefinitionNames(perFile: files.map { $0.classes.map(\.name) })
    /// Every instance id of the chain, sorted, with its definitions in layer order (each with
    /// its index in `files`): the order every pass resolves in, sorted once, not per trait set.
    private(set) lazy var instances: [(id: String, definitions: [(layer: Int, syntax: InstanceSyntax)])] = {
        var byID: [String: [(layer: Int, syntax: InstanceSyntax)]] = [:]
        for (layer, file) in files.enumerated() {
            for instance in file.instances { byID[instance.id, default: []].append((layer, instance)) }
        }
        return byID.keys.sorted().map { ($0, byID[$0]!) }
    }()

    fileprivate enum CheckResult { case unchecked, valid, invalid }

    /// What is known of the chain's operations as operations of one component, by slot: a
    /// resolution looks it up once and passes it on with each operation's slot, rather than
    /// each operation looking it up by name (bench-brands.py, validate). A class, so results
    /// are written in place rather than through a copied array.
    final class ComponentTable {
        let component: String
        fileprivate var results: [CheckResult]
        /// Each operation's schema for the component, once looked up (nil: not yet).
        fileprivate var signatures: [OperationSchema??]
        /// Each operation's params as resolved for the component, with what resolving them
        /// read, the most recent first.
        var params: [[ParamsEntry]]
        init(component: String, count: Int) {
            self.component = component
            results = Array(repeating: .unchecked, count: count)
            signatures = Array(repeating: nil, count: count)
            params = Array(repeating: [], count: count)
        }
    }

    /// An operation's params, kept across passes like an instance's resolution (`ResolutionMemo`):
    /// they are the same in every pass where each name they read finds the same definition
    /// (bench-brands.py, validate).
    struct ParamsEntry {
        let reads: KeptReads
        let params: [Param]
    }

    /// Keeps the params of the operation at `slot` (their reading was clean and reported nothing).
    func keep(_ entry: ParamsEntry, slot: Int, in table: ComponentTable) {
        memo.keep(entry, in: &table.params[slot])
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
        self.redundant = Array(repeating: nil, count: count)
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

    /// The instances for one trait set, sorted by id; none when not `collecting` (for the
    /// findings alone).
    func resolve(_ traits: TraitSet, collecting: Bool = true) -> [ResolvedInstance] {
        resolvedTraitSets.insert(traits)
        var pass = Pass(resolver: self, traits: traits)
        let resolved = pass.run(collecting: collecting)
        slots = pass.resolvedParams
        return resolved
    }

    /// The last finished pass's slots, for the next.
    private var slots = PassSlots()

    /// Slots for a new pass of `count` operations: the last finished pass's storage, when no
    /// other pass has it.
    func takeSlots(count: Int) -> PassSlots {
        var taken = slots
        slots = PassSlots()
        taken.startPass(count: count)
        return taken
    }

    /// Findings that need every trait set seen first: unused definitions, redundant overrides.
    func finish() {
        for finding in contrast?.diagnostics() ?? [] { report(finding) }
        for case (true, let operation)? in redundant {
            report(
                .warning(
                    .overrideRedundant, "operation '\(operation.name)' sets the value it already has; remove it",
                    at: operation.location))
        }
        let files = self.files
        var mentioned = referencedConstants.union(files.flatMap(\.mentionedConstants)).union(suggestedConstants)
        var classes = referencedClasses.union(files.flatMap(\.mentionedClasses)).union(suggestedClasses)
        mentioned.formUnion(Self.meant(by: mentioned, among: constantNames))
        classes.formUnion(
            Self.meant(by: classes.union(files.flatMap(\.instances).flatMap(\.classes)), among: classNames))
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
    static func meant(by mentioned: Set<String>, among defined: DefinitionNames) -> Set<String> {
        var meant: Set<String> = []
        for name in mentioned.filter({ defined.number(of: $0) == nil }).sorted().prefix(200) {
            if let close = Suggestions.closest(to: name, in: defined.names) { meant.insert(close) }
        }
        return meant
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

    func table(for component: String) -> ComponentTable {
        if let existing = checked[component] { return existing }
        let table = ComponentTable(component: component, count: serialCount)
        checked[component] = table
        return table
    }

    /// The schema of the operation at `slot` as an operation of the table's component, looked
    /// up once per (operation, component) (bench-brands.py, validate: a lookup by two names for
    /// each operation of every pass).
    func signature(of operation: OperationSyntax, slot: Int, in table: ComponentTable) -> OperationSchema? {
        if let known = table.signatures[slot] { return known }
        let signature = schema.operation(operation.name, of: table.component)
        table.signatures[slot] = .some(signature)
        return signature
    }

    /// Checks the operation at `slot` against the schema of the table's component, once per
    /// (operation, component).
    func check(_ operation: OperationSyntax, slot: Int, in table: ComponentTable) -> Bool {
        switch table.results[slot] {
        case .valid: return true
        case .invalid: return false
        case .unchecked: break
        }
        let valid = SchemaChecker.check(
            operation, component: table.component, schema: schema, report: { report($0) })
        table.results[slot] = valid ? .valid : .invalid
        return valid
    }
}
