import LiveryModel

// A resolution pass: the tables for one trait set, and each instance resolved from them.
extension ThemeResolver {
    /// Resolution for one trait set. Tables are built fresh for each: references bind late,
    /// against the final definitions of the whole chain for these traits.
    struct Pass {
        let resolver: ThemeResolver
        let traits: TraitSet
        var constants: DefinitionTable<ConstantSyntax>
        var classes: DefinitionTable<ClassSyntax>
        /// Per constant number: not yet evaluated (nil), or its value (nil where it failed).
        var constantValues: [Value??]
        /// Constants some definition of the chain marks `overridable="true"` (format 1.3, 9.2).
        var overridable: Set<String> = []
        var resolvingConstants: [String] = []
        /// Per class number: its operations, once worked out.
        var classOperations: [[OperationSyntax]?]
        var resolvingClasses: [String] = []
        /// Per operation slot: not yet resolved (nil), or its params (nil where they failed)
        /// with what resolving them read.
        var resolvedParams: PassSlots
        /// What the instance being resolved has read so far (see `ResolutionMemo`).
        var reads = ResolutionReads()
        /// What each resolved constant, class and operation's params read, for an instance that
        /// finds them resolved already: per constant number, per class number, and per operation
        /// slot.
        var constantReads: [ResolutionReads?]
        var classReads: [ResolutionReads?]
        /// Per file of the chain, whether it applies with these traits.
        let applies: [Bool]
        /// The pass's `ChainLayers` bits: which files apply.
        let applied: UInt64
        /// The resolver's, held by the pass so that reading them copies nothing.
        let layers: ChainLayers
        /// Whether kept readings are used and kept: not while constants are overridden, nor
        /// while a constant is traced.
        let keeps: Bool
        /// A constant whose reading is recorded in `ResolutionReads.readTraced`: what depends on
        /// it (`dependents(ofConstant:)`).
        let traced: String?

        /// Reports a finding of this pass, remembering the trait set it was seen with.
        func report(_ diagnostic: Diagnostic) {
            resolver.report(diagnostic, traits: traits)
        }

        init(resolver: ThemeResolver, traits: TraitSet, tracing traced: String? = nil) {
            self.resolver = resolver
            self.traits = traits
            let applies = resolver.files.map { $0.qualifiers.applies(in: traits) }
            self.applies = applies
            self.applied = resolver.layers.bits(applying: applies)
            self.layers = resolver.layers
            self.traced = traced
            self.keeps = traced == nil && resolver.memo.enabled && resolver.constantOverrides.isEmpty
            self.resolvedParams = resolver.takeSlots(count: resolver.serialCount)
            let names = resolver.constantNames
            constants = DefinitionTable(names: names)
            constantValues = Array(repeating: nil, count: names.names.count)
            constantReads = Array(repeating: nil, count: names.names.count)
            let classNames = resolver.classNames
            classes = DefinitionTable(names: classNames)
            classOperations = Array(repeating: nil, count: classNames.names.count)
            classReads = Array(repeating: nil, count: classNames.names.count)
        }

        /// Resolves every instance; returns them when `collecting`.
        mutating func run(collecting: Bool = true) -> [ResolvedInstance] {
            fillTables(reporting: true) { _ in }
            applyOverrides()
            // Constants are checked even when nothing references them, so a broken one is reported
            // (a literal cannot be: it is evaluated where it is referenced).
            for number in constants.names.names.indices {
                guard let constant = constants[number] else { continue }
                if case .literal = constant.object.content { continue }
                _ = constantValue(number: number)
            }
            var resolved: [ResolvedInstance] = []
            for (_, all) in resolver.instances {
                let definitions = all.compactMap { applies[$0.layer] ? $0.syntax : nil }
                if !definitions.isEmpty, let instance = resolveInstance(definitions), collecting {
                    resolved.append(instance)
                }
            }
            return resolved
        }

        /// Fills the tables from the layers that apply: the final definition of each constant
        /// and class for these traits (a redefinition that changes a constant's type is skipped,
        /// and reported when `reporting`); hands each instance definition to `each`, in layer
        /// order. `run()` and explanations of one instance start from the same tables.
        mutating func fillTables(reporting: Bool, each: (InstanceSyntax) -> Void) {
            let files = resolver.files
            let numbers = constants.names.perFile
            let classNumbers = classes.names.perFile
            for index in files.indices where applies[index] {
                for (constant, number) in zip(files[index].constants, numbers[index]) {
                    if let earlier = constants[number], earlier.object.type != constant.object.type {
                        guard reporting else { continue }
                        report(
                            .error(
                                .constantTypeChange,
                                "constant '\(constant.name)' is \(Phrasing.a(earlier.object.type.rawValue)) (at \(earlier.location)); a redefinition must keep its type, not make it \(Phrasing.a(constant.object.type.rawValue))",
                                at: constant.location))
                        continue
                    }
                    constants[number] = constant
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
                }
                for (definition, number) in zip(files[index].classes, classNumbers[index]) {
                    classes[number] = definition
                }
                for instance in files[index].instances { each(instance) }
            }
        }

        /// Puts the given values in place of the final values of the overridable constants they
        /// name, before anything refers to them; a value for another name or type is ignored.
        mutating func applyOverrides() {
            for (name, value) in resolver.constantOverrides where overridable.contains(name) {
                guard let number = constants.names.number(of: name),
                    constants[number]?.object.type == value.type
                else { continue }
                constantValues[number] = .some(value)
            }
        }

        /// The instance as resolved for another trait set when every definition it read is the
        /// same, else resolved afresh.
        mutating func resolveInstance(_ definitions: [InstanceSyntax]) -> ResolvedInstance? {
            if keeps, let entry = resolver.memo.entries(for: definitions).first(where: { holds($0.reads) }) {
                reuse(entry)
                if resolver.collectsChoices { recordChoices(of: entry) }
                return entry.instance
            }
            reads = ResolutionReads()
            guard resolver.constantOverrides.isEmpty else { return resolveAfresh(definitions)?.0 }
            let logged = resolver.findingLog.count
            guard let (instance, sources, contrast) = resolveAfresh(definitions) else { return nil }
            let uses = resolver.collectsChoices ? recordChoices(instance, sources: sources) : []
            var mine = reads
            mine.findings += resolver.findingLog[logged...]
            if keeps, mine.clean {
                resolver.memo.insert(
                    ResolutionMemo.Entry(
                        definitions: definitions, reads: kept(mine), instance: instance, sources: sources,
                        contrast: contrast, choiceUses: uses))
            }
            return instance
        }

        /// Whether every definition `reads` found is the one this pass finds, and every asset
        /// it needed is there.
        func holds(_ reads: KeptReads) -> Bool {
            reads.holds(applied: applied) && reads.assets.allSatisfy { resolver.assets.contains($0, traits: traits) }
        }

        /// `reads` as kept for other passes.
        func kept(_ reads: ResolutionReads) -> KeptReads {
            KeptReads(reads, applied: applied)
        }

        /// What resolving the entry's instance did besides its value that depends on the trait
        /// set: reporting its findings (its contrast guards' among them) and checking its contrast.
        /// (What it uses was marked, and its overrides noted, when it was resolved: reusing it
        /// marks and notes the same.)
        mutating func reuse(_ entry: ResolutionMemo.Entry) {
            resolver.reuses += 1
            for finding in entry.reads.findings {
                resolver.report(finding.diagnostic, traits: finding.withTraits ? traits : nil)
            }
            resolver.contrast?.check(entry.instance, pairs: entry.contrast, sources: entry.sources, traits: traits)
        }

        /// The instance, the syntax of its operations, and what the contrast check measures.
        mutating func resolveAfresh(_ definitions: [InstanceSyntax]) -> (
            ResolvedInstance, [OperationSyntax], ContrastCheck.Pairs
        )? {
            // A definition with an unknown component type is the one finding: the others are
            // resolved with the type they agree on, and are not reported as mismatching it.
            let schema = resolver.schema
            let firstKnown = definitions.first { schema.components.keys.contains($0.component) }
            let first = firstKnown ?? definitions[0]
            let component = first.component
            var knownComponent = firstKnown != nil
            var operations = OperationList<OperationSyntax>()
            var visited: [OperationSyntax] = []
            for definition in definitions {
                // most definitions are of the first one's component: it is looked up once
                let known =
                    definition.component == component
                    ? firstKnown != nil : schema.components.keys.contains(definition.component)
                if !known {
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
            let table = resolver.table(for: component)
            // Every occurrence is checked, including ones a later layer overrides: a typo must not
            // hide behind an override. Results are cached, so the effective ones cost nothing more.
            for operation in visited {
                let slot = resolver.slot(of: operation)
                if !resolver.check(operation, slot: slot, in: table) {
                    // a param of the wrong type (a string for an image) still names what it meant
                    for param in operation.params {
                        if case .literal(.string(let text)) = param.object.content {
                            resolver.referencedAssets.insert(text)
                        }
                    }
                }
                _ = params(of: operation, slot: slot, in: table)
            }
            let effective = operations.elements
            var resolved: [ResolvedOperation] = []
            var sources: [OperationSyntax] = []
            resolved.reserveCapacity(effective.count)
            sources.reserveCapacity(effective.count)
            for operation in effective {
                let slot = resolver.slot(of: operation)
                guard resolver.check(operation, slot: slot, in: table),
                    let params = params(of: operation, slot: slot, in: table)
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
            // Once it has set another value, it is not redundant, whatever it overrides elsewhere.
            let slot = resolver.slot(of: operation)
            if resolver.redundant[slot]?.0 == false { return }
            var same = false
            if let replaced, replaced.serial != operation.serial,
                let old = paramsIgnoringErrors(replaced), let new = paramsIgnoringErrors(operation)
            {
                same = old == new
            }
            let previous = resolver.redundant[slot]?.0 ?? true
            resolver.redundant[slot] = (previous && same, operation)
        }

        private mutating func paramsIgnoringErrors(_ operation: OperationSyntax) -> [Param]? {
            if let cached = resolvedParams[resolver.slot(of: operation)] { return cached.params }
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
            guard let number = classes.names.number(of: name), let definition = classes[number] else {
                reads.clean = false
                if resolver.brokenClasses.contains(name) { return [] }
                let (hint, fix) = resolver.suggestion(name, in: classes.defined.map(\.name))
                if let fix { resolver.suggestedClasses.insert(fix.replacement) }
                report(
                    .error(
                        .classUnknown, "unknown class '\(name)'\(hint.isEmpty ? "; define it in <classes>" : hint)",
                        at: location(), fix: fix))
                return []
            }
            resolver.referencedClasses.insert(name)
            reads.layers |= layers.bits(ofClass: number)
            if let cached = classOperations[number] {
                if let known = classReads[number] { reads.formUnion(known) }
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
            classReads[number] = endReading(outer)
            resolvingClasses.removeLast()
            let elements = operations.elements
            classOperations[number] = elements
            return elements
        }

        mutating func params(of operation: OperationSyntax, component: String) -> [Param]? {
            params(of: operation, slot: resolver.slot(of: operation), in: resolver.table(for: component))
        }

        /// The params of the operation at `slot` as an operation of the table's component.
        mutating func params(
            of operation: OperationSyntax, slot: Int, in table: ThemeResolver.ComponentTable
        ) -> [Param]? {
            if let cached = resolvedParams[slot] {
                reads.formUnion(cached.reads)
                return cached.params
            }
            if keeps {
                for entry in table.params[slot] where holds(entry.reads) {
                    let known = ResolutionReads(entry.reads)
                    reads.formUnion(known)
                    resolvedParams[slot] = (entry.params, known)
                    return entry.params
                }
            }
            let outer = beginReading()
            var result: [Param]? = []
            let signature = resolver.signature(of: operation, slot: slot, in: table)
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
            let mine = endReading(outer)
            resolvedParams[slot] = (result, mine)
            if keeps, let result, mine.reportedNothing {
                resolver.keep(.init(reads: kept(mine), params: result), slot: slot, in: table)
            }
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
            if resolver.findingLog.count > outer.logged { mine.findings += resolver.findingLog[outer.logged...] }
            return mine
        }
    }
}
