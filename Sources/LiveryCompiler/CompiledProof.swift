import LiveryBinary
import LiveryModel
import LiveryXML

extension ThemeCompiler {
    /// The proof that compiled equals source, shared by `compile --verify` and `build`: nil when
    /// the compiled bytes read back, through the reader an app uses, exactly as the folder
    /// resolves, else the first difference found.
    public static func firstMismatch(_ bytes: [UInt8], themeAt path: String, workspace: ThemeWorkspace) -> String? {
        let variants = workspace.variants(ofThemeAt: path)
        guard let theme = variants.value else { return "the folder does not resolve" }
        return firstMismatch(bytes, variants: theme)
    }

    /// The proof against a theme already resolved (what `compilation(themeAt:workspace:)` gives).
    public static func firstMismatch(_ bytes: [UInt8], variants: ThemeVariants) -> String? {
        do {
            let compiled = try CompiledTheme(bytes: bytes)
            try compiled.verifyContents()
            return try CompiledProof(compiled: compiled, folder: variants).firstMismatch()
        } catch {
            return "the compiled bytes do not read back: \(error)"
        }
    }
}

/// Compares a compiled theme with the folder's resolution as values in memory.
///
/// Rules that keep it as strong as comparing canonical dumps of every trait set at every scale:
/// - Every one of the 96 trait sets an app can run with is looked up through the reader's own
///   variant table (`CompiledTheme.variant(for:)`), so a wrong slot or wrong axes are seen; each
///   distinct pair (stored variant, folder variant) is compared once, and within them each pair
///   (stored record of an id, source instance) once: a record reads back the same wherever the
///   variant table points an id at it.
/// - Strings (ids, names, states, values, fonts, asset files) are compared by their UTF-8 bytes:
///   Swift's `==` calls NFC "é" and NFD "e" + U+0301 equal, the format does not.
/// - Numbers are compared by bit pattern and fonts field by field, so every text scale (a pure
///   function of a font's fields) agrees when the fields do.
/// - The screen scale changes only which asset file an image picks: the asset choices are
///   compared on their own, for every trait set, every asset name of either side and scales 1-3.
struct CompiledProof {
    let compiled: CompiledTheme
    let folder: ThemeVariants

    static let scales = 1...3

    func firstMismatch() throws -> String? {
        if let mismatch = compareChain() { return mismatch }
        var comparedPairs: Set<Pair> = []
        var instances = Instances()
        for traits in TraitAxes.all.traitSets {
            let canonical = folder.axes.canonical(traits)
            let expected = folder.variants[canonical] ?? []
            guard let variant = compiled.variant(for: traits) else {
                if let first = expected.first {
                    return "the compiled theme has no variant for \(traits); the folder defines '\(first.id)' there"
                }
                continue
            }
            guard comparedPairs.insert(Pair(variant: variant.rawValue, traits: canonical)).inserted else { continue }
            if let mismatch = try compare(variant, expected, traits: traits, &instances) { return mismatch }
        }
        return try compareChoices() ?? compareAssets()
    }

    /// The personal choices (format 1.3, section 9.2): the overridable constants, and each trait
    /// set's uses read as an app's theme loads them (every use of its variant, sorted by id).
    private func compareChoices() throws -> String? {
        guard try compiled.choiceConstants() == folder.choices.constants else {
            return "the compiled theme's overridable constants differ from the folder's"
        }
        for traits in folder.axes.traitSets {
            guard let variant = compiled.variant(for: traits) else { continue }
            let expected = folder.choices.uses[traits] ?? []
            let stored = try compiled.choiceUses(in: variant)
            guard stored == expected else {
                return "for \(traits): the compiled theme's personal choices differ from the folder's"
            }
        }
        return nil
    }

    private struct Pair: Hashable {
        var variant: UInt32
        var traits: TraitSet
    }

    /// What the variants compared so far share: each stored instance is decoded once per
    /// record it has (an id in one record reads back the same in every variant), and compared
    /// once with each source instance it meets, known by its operations' storage (alive in the
    /// folder's variants throughout). (bench-brands.py, build: most instances keep their
    /// record across the variants.)
    private struct Instances {
        struct Stored: Hashable {
            var handle: UInt32
            var record: Int
        }
        struct Compared: Hashable {
            var stored: Stored
            var source: UnsafeRawPointer?
        }
        var decoded: [Stored: ResolvedInstance] = [:]
        var compared: Set<Compared> = []
    }

    private func compareChain() -> String? {
        let chain = compiled.chain.map(\.info)
        let expected = folder.ancestors + [folder.info]
        guard chain.count == expected.count else {
            return "the compiled theme has \(chain.count) themes in its chain, the folder \(expected.count)"
        }
        for (stored, source) in zip(chain, expected) {
            for (field, a, b) in [
                ("id", stored.id, source.id), ("name", stored.name, source.name),
                ("version", stored.version, source.version), ("parent", stored.parent ?? "", source.parent ?? ""),
                ("description", stored.description ?? "", source.description ?? ""),
            ] where !ByteExact.same(a, b) || (field == "parent" && (stored.parent == nil) != (source.parent == nil)) {
                return
                    "the compiled theme's \(field) of '\(source.id)' is \(Self.quoted(a)), the folder's \(Self.quoted(b))"
            }
        }
        return nil
    }

    /// One stored variant against the folder's instances for a trait set that selects it.
    private func compare(
        _ variant: VariantHandle, _ expected: [ResolvedInstance], traits: TraitSet, _ instances: inout Instances
    ) throws -> String? {
        var byID: [[UInt8]: ResolvedInstance] = [:]
        byID.reserveCapacity(expected.count)
        for instance in expected { byID[Array(instance.id.utf8)] = instance }
        var found = 0
        for handle in 0..<compiled.idCount {
            let handle = InstanceHandle(rawValue: UInt32(handle))
            guard let record = try compiled.record(of: handle, in: variant) else { continue }
            let key = Instances.Stored(handle: handle.rawValue, record: record)
            let stored: ResolvedInstance
            if let known = instances.decoded[key] {
                stored = known
            } else {
                guard let decoded = try compiled.instance(handle, in: variant) else { continue }
                instances.decoded[key] = decoded
                stored = decoded
            }
            guard let source = byID[Array(stored.id.utf8)] else {
                return
                    "the compiled theme has instance \(Self.quoted(stored.id)) for \(traits), which the folder does not define there"
            }
            found += 1
            let storage = source.operations.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            let seen = !instances.compared.insert(.init(stored: key, source: storage)).inserted
            if seen, ByteExact.same(stored.component, source.component) { continue }
            if let mismatch = Self.compare(stored, source) { return "for \(traits): \(mismatch)" }
        }
        guard found == expected.count else {
            for instance in expected {
                guard let handle = try compiled.checkedHandle(for: instance.id),
                    try compiled.instance(handle, in: variant) != nil
                else {
                    return "instance \(Self.quoted(instance.id)) is lost in the compiled theme for \(traits)"
                }
            }
            return "the compiled theme has \(found) instances for \(traits), the folder \(expected.count)"
        }
        return nil
    }

    static func compare(_ stored: ResolvedInstance, _ source: ResolvedInstance) -> String? {
        let id = quoted(source.id)
        guard ByteExact.same(stored.component, source.component) else {
            return "instance \(id) is \(quoted(stored.component)) compiled, \(quoted(source.component)) in the folder"
        }
        for (index, (a, b)) in zip(stored.operations, source.operations).enumerated() {
            guard ByteExact.same(a.name, b.name), ByteExact.same(a.state.rawValue, b.state.rawValue) else {
                return
                    "operation \(index + 1) of instance \(id) is \(quoted(a.name)) (\(a.state)) compiled, \(quoted(b.name)) (\(b.state)) in the folder"
            }
            guard a.params.count == b.params.count else {
                return
                    "operation \(quoted(b.name)) of instance \(id) has \(a.params.count) params compiled, \(b.params.count) in the folder"
            }
            for (x, y) in zip(a.params, b.params) {
                guard ByteExact.same(x.name, y.name), ByteExact.same(x.value, y.value) else {
                    return
                        "param \(quoted(y.name)) of operation \(quoted(b.name)) of instance \(id) is \(text(x.value)) compiled, \(text(y.value)) in the folder"
                }
            }
        }
        guard stored.operations.count == source.operations.count else {
            let (longer, side) =
                stored.operations.count > source.operations.count
                ? (stored.operations, "compiled only") : (source.operations, "lost in the compiled theme")
            let extra = longer[min(stored.operations.count, source.operations.count)]
            return "operation \(quoted(extra.name)) (\(extra.state)) of instance \(id) is \(side)"
        }
        return nil
    }

    /// Each image's file, as chosen at each scale for each trait set (traits as the app runs
    /// with them: an asset's qualifiers may name values no configuration file does, so the
    /// assets' own axes are used, not the theme's).
    private func compareAssets() -> String? {
        let stored = compiled.assetCatalog
        let source = folder.assets
        var names: [[UInt8]: String] = [:]
        // A trait value none of a name's files' qualifiers name behaves as no value in its
        // dimension (a file applies when each of its tags is active), so the trait sets of the
        // axes of that name's own files stand for every trait set (bench-brands.py, build: most
        // assets have no qualified file, and need one).
        // (By name as Swift compares names, so both spellings of a name are one set of files.)
        var axes: [String: TraitAxes] = [:]
        for variant in stored.variants + source.variants {
            names[Array(variant.name.utf8)] = variant.name
            axes[variant.name, default: TraitAxes()].insert(variant.qualifiers)
        }
        let present = Set(
            compiled.assets.map { Array($0.variant.fileKey.themeID.utf8) + [0] + Array($0.variant.file.utf8) })
        for key in names.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let name = names[key]!
            for traits in axes[name]!.traitSets {
                for scale in Self.scales {
                    let a = stored.select(name, traits: traits, scale: scale)
                    let b = source.select(name, traits: traits, scale: scale)
                    guard ByteExact.same(a?.themeID ?? "", b?.themeID ?? ""),
                        ByteExact.same(a?.file ?? "", b?.file ?? ""),
                        (a == nil) == (b == nil)
                    else {
                        return
                            "asset \(Self.quoted(name)) for \(traits) at scale \(scale) is \(a.map { "\($0.themeID):\($0.file)" } ?? "missing") compiled, \(b.map { "\($0.themeID):\($0.file)" } ?? "missing") in the folder"
                    }
                    if let a, !present.contains(Array(a.themeID.utf8) + [0] + Array(a.file.utf8)) {
                        return "asset file \(a.file) of \(a.themeID) has no bytes in the compiled theme"
                    }
                }
            }
        }
        return nil
    }

    static func text(_ value: Value) -> String {
        if case .string(let string) = value { return quoted(string) }
        return "\(value)"
    }

    /// A string with its bytes visible when they are not ASCII, so "café" NFC and NFD read apart.
    static func quoted(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return "'\(text)'" }
        return "'\(text)' (UTF-8 \(text.utf8.map { String($0, radix: 16) }.joined(separator: " ")))"
    }
}
