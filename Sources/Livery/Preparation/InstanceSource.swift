import LiveryBinary
import LiveryModel

/// The instances of one theme for one trait set, as a prepared theme reads them: from a theme
/// resolved in memory (a folder, or a theme added in memory), or straight from the records of a
/// compiled file, one instance when a component is first styled with its id.
///
/// A `SourcePosition` names an instance in the source: its index in the resolved theme, or its
/// handle in the compiled file (the same for every trait set; a position the variant does not
/// define reads as nil).
struct InstanceSource: Sendable {
    /// The theme's facts for these traits: info, traits and assets (what images are chosen by).
    /// Its instances are empty when they are read from a compiled file.
    let header: ResolvedTheme
    private let compiled: CompiledTheme?
    private let variant: VariantHandle?
    /// The user's text scale the fonts are sized for (ThemeManager+TextSize.swift).
    private let textScale: Double

    /// The values of personal choices, applied to each instance as it is read (before its text
    /// scale, so a font given by the user is scaled like the theme's).
    private let replacements: ChoiceReplacements
    /// The ids whose instances the values of personal choices change, in the order of the uses.
    let replacedIDs: [String]
    /// A resolved theme's instances before their text scale, when values replace some of them
    /// (shared with the theme, not copied: only the instances the values reach are built again,
    /// as they are read; `livery-switch-bench --choice`).
    private let unscaled: [ResolvedInstance]

    init(
        resolved: ResolvedTheme, textScale: Double = TextScale.standard,
        replacements: ChoiceReplacements = ChoiceReplacements()
    ) {
        header = resolved.applyingTextScale(textScale)
        compiled = nil
        variant = nil
        self.textScale = textScale
        self.replacements = replacements
        replacedIDs = replacements.ids
        unscaled = replacements.isEmpty ? [] : resolved.instances
    }

    init(
        compiled: CompiledTheme, info: ThemeInfo, traits: TraitSet, assets: AssetCatalog,
        textScale: Double = TextScale.standard, replacements: ChoiceReplacements = ChoiceReplacements()
    ) {
        header = ResolvedTheme(info: info, traits: traits, instances: [], assets: assets)
        self.compiled = compiled
        variant = compiled.variant(for: traits)
        self.textScale = textScale
        self.replacements = replacements
        replacedIDs = replacements.ids
        unscaled = []
    }

    /// The replacements the values of personal choices make in instance `id`'s params, nil when
    /// none.
    func replacements(of id: String) -> ChoiceReplacements.Replacements? { replacements.replacements(of: id) }

    /// Whether instances are read from a compiled file as they are needed (then `position(of:)`
    /// answers from the file's hash table), rather than all held in `header`.
    var readsLazily: Bool { compiled != nil }

    /// The file instances are read from, for messages.
    var compiledFile: CompiledTheme? { compiled }

    /// Positions run from 0 to `positionCount - 1`.
    var positionCount: Int { compiled?.idCount ?? header.instances.count }

    /// The position of `id` in a compiled file (its handle), nil when no variant defines it. A
    /// resolved theme's positions are found by numbering every id once (`PreparedTheme`).
    func position(of id: String) throws(BinaryFormatError) -> SourcePosition? {
        guard let compiled else { return header.instances.firstIndex { $0.id == id }.map(SourcePosition.init) }
        return try compiled.checkedHandle(for: id).map { SourcePosition(rawValue: Int32(bitPattern: $0.rawValue)) }
    }

    /// The instance at `position`, nil when these traits do not define it; read from the file
    /// (its blocks checked) for a compiled theme.
    func instance(at position: SourcePosition) throws(BinaryFormatError) -> ResolvedInstance? {
        guard let compiled else {
            guard position.index < header.instances.count else { return nil }
            guard !replacements.isEmpty, let replaced = replacements.replacements(of: unscaled[position.index].id)
            else { return header.instances[position.index] }
            return ChoiceReplacements.apply(replaced, to: unscaled[position.index]).applyingTextScale(textScale)
        }
        guard let variant else { return nil }
        guard
            let instance = try compiled.instance(
                InstanceHandle(rawValue: UInt32(bitPattern: position.rawValue)), in: variant)
        else { return nil }
        return (replacements.isEmpty ? instance : replacements.apply(to: instance)).applyingTextScale(textScale)
    }

    /// The whole theme for these traits. For a compiled file this reads every instance: only
    /// for an app that asks (`ThemeScope.theme`), never on the apply path. An instance in a
    /// damaged block is left out and handed to `unreadable`, which reports it.
    func theme(unreadable: (BinaryFormatError, SourcePosition) -> Void) -> ResolvedTheme {
        guard compiled != nil || !replacements.isEmpty else { return header }
        var instances: [ResolvedInstance] = []
        for index in 0..<positionCount {
            let position = SourcePosition(index)
            do {
                if let instance = try instance(at: position) { instances.append(instance) }
            } catch {
                unreadable(error, position)
            }
        }
        return ResolvedTheme(info: header.info, traits: header.traits, instances: instances, assets: header.assets)
    }
}
