import LiveryModel

/// What resolving something read: the constants and classes it looked up, as the `ChainLayers`
/// bits of the files defining them, and the assets it needed. A resolution reads only these, so
/// where every name finds the same definition and every asset is there, it resolves the same.
///
/// Reads are clean when no name on the way was missing: only a clean resolution is reused. What
/// it reported is kept with it and reported again, with the trait set of the pass that reuses
/// it, so a theme with findings reuses as much as a clean one (bench-brands.py, the tree of
/// brands with findings) and reports exactly what resolving afresh reports.
struct ResolutionReads {
    /// A finding as reported: with the pass's trait set or without one.
    struct Finding {
        var diagnostic: Diagnostic
        var withTraits: Bool
    }

    /// The `ChainLayers` bits of the definitions found, each looked up by its name.
    var layers: UInt64 = 0
    var assets: [String] = []
    /// Whether the constant the pass traces (`Pass.traced`) was read.
    var readTraced = false
    /// What was reported while reading, in order, including what the definitions read from the
    /// pass's cache reported when they were first read.
    var findings: [Finding] = []
    var clean = true

    /// Clean, and nothing was reported: what a constant's value or an operation's params are
    /// kept with (only an instance's resolution replays findings).
    var reportedNothing: Bool { clean && findings.isEmpty }

    /// A kept reading, as a reading a pass goes on with.
    init(_ kept: KeptReads) {
        layers = kept.layers
        assets = kept.assets
        findings = kept.findings
    }

    init() {}

    /// (Empty arrays are skipped: most readings need no asset and report nothing; bench-brands.py,
    /// validate.)
    mutating func formUnion(_ other: ResolutionReads) {
        if !other.assets.isEmpty { assets += other.assets }
        if !other.findings.isEmpty { findings += other.findings }
        layers |= other.layers
        readTraced = readTraced || other.readTraced
        clean = clean && other.clean
    }
}

/// What a kept value's reading read, as `ChainLayers` bits: it holds in a pass whose bits agree
/// with `applied` (the bits of the pass that read it) on every bit of `layers`, and where each
/// of `assets` is there. Its findings are reported again where it is reused.
struct KeptReads {
    let applied: UInt64
    let layers: UInt64
    let assets: [String]
    let findings: [ResolutionReads.Finding]

    init(_ reads: ResolutionReads, applied: UInt64) {
        self.applied = applied
        self.layers = reads.layers
        var names: Set<String> = []
        assets = reads.assets.count > 1 ? reads.assets.filter { names.insert($0).inserted } : reads.assets
        findings = reads.findings
    }

    /// Whether it holds in a pass with these bits, all assets aside.
    @inline(__always) func holds(applied other: UInt64) -> Bool {
        (applied ^ other) & layers == 0
    }
}

/// The instance resolutions one resolver keeps for reuse across its trait sets: an instance
/// resolves the same for every trait set where each name it read finds the same definition and
/// every asset it needed is there, so it is resolved once per set of definitions it reads (light
/// and dark, say), not once per trait set (bench-brands.py; bench-lsp.py, 10,000 instances).
///
/// Kept by one resolver, not shared by the children of a parent: a memo shared by every resolver
/// of a schema was measured slower, with one job as with two (bench-brands.py, validate). Most of
/// a parent's instances read the brand's constants, so they resolve again in each child anyway,
/// and sharing costs a lock and reference counting across threads.
final class ResolutionMemo {
    final class Entry {
        /// The instance's definitions, in layer order: the key.
        let definitions: [InstanceSyntax]
        let reads: KeptReads
        let instance: ResolvedInstance
        /// The syntax of each resolved operation, in order (what the contrast check locates).
        let sources: [OperationSyntax]
        /// What the contrast check measures, for every trait set.
        let contrast: ContrastCheck.Pairs
        /// The uses of the instance's params that follow personal choices, found when it was
        /// resolved (none where the resolver does not collect them).
        let choiceUses: [ChoiceUse]

        init(
            definitions: [InstanceSyntax], reads: KeptReads, instance: ResolvedInstance,
            sources: [OperationSyntax], contrast: ContrastCheck.Pairs, choiceUses: [ChoiceUse]
        ) {
            self.choiceUses = choiceUses
            self.definitions = definitions
            self.reads = reads
            self.instance = instance
            self.sources = sources
            self.contrast = contrast
        }
    }

    /// By the last definition's identity (the entries hold their definitions, so it is not
    /// reused by another object while kept).
    private var entries: [ObjectIdentifier: [Entry]] = [:]
    /// Entries kept per set of definitions, the most recent first.
    let variantsPerInstance = 4
    /// Whether anything is kept (off only to check that reusing changes nothing).
    let enabled: Bool

    init(enabled: Bool = true) {
        self.enabled = enabled
    }

    /// The entries for `definitions`, the most recent first.
    func entries(for definitions: [InstanceSyntax]) -> [Entry] {
        guard let last = definitions.last, let candidates = entries[ObjectIdentifier(last)] else { return [] }
        return candidates.filter { entry in
            entry.definitions.count == definitions.count && zip(entry.definitions, definitions).allSatisfy { $0 === $1 }
        }
    }

    /// A constant's value, kept with what computing it read: it is the same in every pass where
    /// each of those names finds the same definition (bench-brands.py, validate: every constant is
    /// evaluated in every pass, and a colour with a contrast guard costs a search).
    struct ConstantEntry {
        let reads: KeptReads
        let value: Value
    }

    /// By the constant's definition (kept by the resolver's chain, so not reused meanwhile).
    private var constants: [ObjectIdentifier: [ConstantEntry]] = [:]

    func constantEntries(for definition: ConstantSyntax) -> [ConstantEntry] {
        constants[ObjectIdentifier(definition)] ?? []
    }

    func insert(_ entry: ConstantEntry, for definition: ConstantSyntax) {
        guard enabled else { return }
        keep(entry, in: &constants[ObjectIdentifier(definition), default: []])
    }

    func insert(_ entry: Entry) {
        guard enabled, let last = entry.definitions.last else { return }
        keep(entry, in: &entries[ObjectIdentifier(last), default: []])
    }

    /// Puts `entry` first in `list`, which keeps the `variantsPerInstance` most recent.
    func keep<Kept>(_ entry: Kept, in list: inout [Kept]) {
        list.insert(entry, at: 0)
        if list.count > variantsPerInstance { list.removeLast() }
    }
}
