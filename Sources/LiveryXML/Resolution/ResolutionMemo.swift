import Foundation
import LiveryModel

/// What resolving something read: the constants and classes it looked up (by name, with the
/// definition found) and the assets it needed. A resolution reads only these, so where every
/// name finds the same definition object and every asset is there, it resolves the same.
///
/// Reads are clean when nothing on the way was reported or missing: only a clean resolution is
/// reused, so that a finding is always reported by resolving again, never replayed.
struct ResolutionReads {
    var constants: [(name: String, definition: ConstantSyntax)] = []
    var classes: [(name: String, definition: ClassSyntax)] = []
    var assets: [String] = []
    var clean = true

    mutating func formUnion(_ other: ResolutionReads) {
        constants += other.constants
        classes += other.classes
        assets += other.assets
        clean = clean && other.clean
    }

    /// Each definition once (within one resolution pass a name finds one definition).
    var distinct: ResolutionReads {
        var seen: Set<ObjectIdentifier> = []
        var result = ResolutionReads(clean: clean)
        result.constants = constants.filter { seen.insert(ObjectIdentifier($0.definition)).inserted }
        result.classes = classes.filter { seen.insert(ObjectIdentifier($0.definition)).inserted }
        var names: Set<String> = []
        result.assets = assets.filter { names.insert($0).inserted }
        return result
    }
}

/// Instance resolutions kept for reuse, shared by every resolver of one schema: an instance of a
/// parent resolves the same for each trait set and in each child theme that redefines nothing it
/// reads, so it is resolved once, not once per child and trait set (the brands benchmark).
///
/// An entry holds its definitions and what it read strongly, so an identity it is matched by
/// cannot be reused by another object while it is kept.
final class ResolutionMemo: @unchecked Sendable {
    /// A class: entries are handed out by the hundred thousand, one retain each. Equal only to
    /// itself.
    final class Entry: Hashable {
        static func == (left: Entry, right: Entry) -> Bool { left === right }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

        /// The instance's definitions, in layer order: the key.
        let definitions: [InstanceSyntax]
        let reads: ResolutionReads
        let instance: ResolvedInstance
        /// The syntax of each resolved operation, in order (what the contrast check locates).
        let sources: [OperationSyntax]
        /// Own operations that overrode another, and whether they set the value they replaced.
        let overrides: [(operation: OperationSyntax, same: Bool)]
        /// What the contrast check measures, for every trait set.
        let contrast: ContrastCheck.Pairs

        init(
            definitions: [InstanceSyntax], reads: ResolutionReads, instance: ResolvedInstance,
            sources: [OperationSyntax], overrides: [(operation: OperationSyntax, same: Bool)],
            contrast: ContrastCheck.Pairs
        ) {
            self.definitions = definitions
            self.reads = reads
            self.instance = instance
            self.sources = sources
            self.overrides = overrides
            self.contrast = contrast
        }
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: [Entry]] = [:]
    /// Entries kept.
    private(set) var count = 0
    /// Entries kept per set of definitions: one per distinct set of definitions read (light and
    /// dark, say), the most recent first.
    let variantsPerInstance = 4
    /// Whether anything is kept (off only to check that reusing changes nothing).
    let enabled: Bool
    /// Entries kept in all; past it the memo starts again. An entry holds the files of the
    /// themes whose definitions it read, so this bounds what a build of thousands of themes
    /// holds (bench-brands.py, peak RSS), and what a language server's edits leave behind.
    private(set) var capacity = 1024

    init(enabled: Bool = true) {
        self.enabled = enabled
    }

    /// Makes room for every variant of `count` instances (the chain being resolved): a theme of
    /// many instances reuses its own resolutions across trait sets.
    func admit(instances count: Int) {
        lock.lock()
        defer { lock.unlock() }
        capacity = max(capacity, 2 * variantsPerInstance * count)
    }

    /// Drops every entry (the definitions they hold are being read again).
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        entries = [:]
        count = 0
    }

    /// The entries for `definitions`, the most recent first.
    func entries(for definitions: [InstanceSyntax]) -> [Entry] {
        guard let last = definitions.last else { return [] }
        lock.lock()
        let candidates = entries[ObjectIdentifier(last)] ?? []
        lock.unlock()
        return candidates.filter { entry in
            entry.definitions.count == definitions.count && zip(entry.definitions, definitions).allSatisfy { $0 === $1 }
        }
    }

    func insert(_ entry: Entry) {
        guard enabled, let last = entry.definitions.last else { return }
        lock.lock()
        defer { lock.unlock() }
        if count >= capacity {
            entries = [:]
            count = 0
        }
        let key = ObjectIdentifier(last)
        var list = entries[key] ?? []
        list.insert(entry, at: 0)
        count += 1
        if list.count > variantsPerInstance {
            list.removeLast()
            count -= 1
        }
        entries[key] = list
    }
}
