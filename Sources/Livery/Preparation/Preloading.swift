import LiveryModel

extension Applicator {
    /// Prepares themes on other threads and keeps them, for the app's traits and scale or the
    /// ones given, and the user's text scale, with the plans for switching between them. Styling components then finds
    /// every setter looked up and every value decoded, a first switch between these themes
    /// runs ready plans as a later switch does, and the main actor does only the components'
    /// own work. Call it at launch, or when a theme arrives, with the themes the app may show
    /// and switch between.
    ///
    /// Without it, instances are prepared on the main actor as they are first styled, and a
    /// group's plan is made at its first switch; with one identifier per component, that is
    /// most of the time registering and first switching take (see docs/Runtime.md).
    ///
    /// A theme already prepared whole, or that the manager does not have, is skipped. A theme
    /// that is in use, prepared as it was styled, is replaced by the whole one, without touching
    /// components (it is the same theme). Work made stale meanwhile (bindings registered,
    /// themes reloaded) is dropped. Decoding runs off the main actor here, as
    /// `ThemeValueConvertible` and `ComponentBinding.bind(_:decode:get:set:takesState:)` allow.
    public func preload(_ themeIDs: [String], traits: TraitSet? = nil, scale: Int? = nil) async {
        let traits = traits ?? manager.traits
        let scale = max(1, scale ?? manager.scale)
        let textScale = manager.textScale
        let snapshot = bindings.snapshot()
        let knownKeys = operationKeys.numbering.keys
        var jobs: [(key: PreparedTheme.Key, loaded: LoadedTheme)] = []
        for themeID in themeIDs {
            let key = PreparedTheme.Key(
                themeID: themeID, traits: traits, scale: scale,
                themeGeneration: manager.generation, bindingGeneration: bindings.generation,
                textScale: textScale, invalidations: invalidations)
            guard prepared.theme(for: key)?.isComplete != true, !jobs.contains(where: { $0.key == key }),
                let loaded = manager.theme(themeID)
            else { continue }
            jobs.append((key, loaded))
        }
        guard !jobs.isEmpty else { return }
        let sources = jobs.map(\.loaded)
        let work = await Task.detached {
            await Self.prepare(
                sources, traits: traits, scale: scale, textScale: textScale, bindings: snapshot,
                knownKeys: knownKeys)
        }.value
        guard
            jobs.allSatisfy({
                $0.key.themeGeneration == manager.generation
                    && $0.key.bindingGeneration == bindings.generation && $0.key.invalidations == invalidations
            })
        else { return }
        // The keys met are numbered after the ones the applicator had; unless it numbered
        // others meanwhile, they get the same numbers here, and nothing needs mapping.
        var keyMap = ContiguousArray<OperationKeyNumber>()
        for key in work.keys { keyMap.append(operationKeys.number(key)) }
        let mapping = keyMap.indices.allSatisfy { keyMap[$0].index == $0 } ? nil : keyMap
        var themes: [PreparedTheme] = []
        // Whether `themes[i]` is the one made here: plans made here number keys as its
        // contents do, and only such a theme can take them.
        var made: [Bool] = []
        for (index, job) in jobs.enumerated() {
            let preparer = work.preparers[index]
            let images = ImageLoader(
                theme: preparer.theme, scale: scale, source: job.loaded.assets,
                decoder: imageDecoder, cache: imageCache, diagnostics: diagnostics)
            let theme = PreparedTheme(
                key: job.key, images: images, preparer: preparer, contents: work.contents[index],
                keyMap: mapping, operationKeys: operationKeys, identifiers: registry.identifiers)
            if let partial = prepared.theme(for: job.key) {
                if partial.isComplete {  // another preload was first
                    themes.append(partial)
                    made.append(false)
                    continue
                }
                replace(partial, with: theme)
            }
            prepared.keep(theme)
            themes.append(theme)
            made.append(true)
        }
        for plans in work.plans where made[plans.from] && made[plans.to] {
            themes[plans.to].adoptPlans(plans.contents, from: themes[plans.from], keyMap: mapping)
        }
    }

    /// What `prepare` hands back to the main actor.
    struct PreloadWork: Sendable {
        var preparers: [InstancePreparer]
        var contents: [PreparedContents]
        var plans: [(from: Int, to: Int, contents: PlanContents)]
        /// The numbering of the keys in `contents` and `plans` (see `PreparedContents.numberKeys`).
        var keys: [OperationKey]
    }

    /// Prepares the themes, a task each (a machine with two cores prepares two themes in the
    /// time of one), then the plans between every two of them, a task each way.
    private nonisolated static func prepare(
        _ sources: [LoadedTheme], traits: TraitSet, scale: Int, textScale: Double,
        bindings: BindingSnapshot,
        knownKeys: [OperationKey]
    ) async -> PreloadWork {
        let prepared = await withTaskGroup(of: (Int, InstancePreparer, PreparedContents).self) { group in
            for (index, source) in sources.enumerated() {
                group.addTask {
                    let preparer = InstancePreparer(
                        source: source.instances(for: traits, textScale: textScale), scale: scale,
                        bindings: bindings)
                    return (index, preparer, preparer.prepareAll())
                }
            }
            var results: [(Int, InstancePreparer, PreparedContents)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        let preparers = prepared.map(\.1)
        var contents = prepared.map(\.2)
        let keys = PreparedContents.numberKeys(&contents, startingWith: knownKeys)
        let all = contents
        let plans = await withTaskGroup(of: (from: Int, to: Int, contents: PlanContents).self) { group in
            for from in all.indices {
                for to in all.indices where to != from {
                    group.addTask {
                        (from, to, PlanContents(from: all[from], to: all[to]))
                    }
                }
            }
            var results: [(from: Int, to: Int, contents: PlanContents)] = []
            for await result in group { results.append(result) }
            return results
        }
        return PreloadWork(preparers: preparers, contents: contents, plans: plans, keys: keys)
    }

    /// Puts `complete` (the same theme, traits and scale, every instance prepared) in place of
    /// `partial` wherever scopes show it: both apply exactly the same values, so components are
    /// not touched; only their groups' instance numbers change.
    private func replace(_ partial: PreparedTheme, with complete: PreparedTheme) {
        for scope in registry.scopeIDs where registry.theme(of: scope) === partial {
            registry.setTheme(complete, of: scope)
            for group in registry.groups(of: scope) {
                registry.setInstance(complete.instance(identifier: registry.identifier(of: group)), of: group)
            }
        }
    }
}
