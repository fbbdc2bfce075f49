import LiveryModel

/// `contrast-unguarded` (format 1.3, section 9.2): a text/background pair that the contrast
/// checks measure, where a user's value for an overridable constant changes the text or the
/// background and nothing keeps the two apart. Runs only while validating a theme that has
/// overridable constants: other themes pay nothing.
extension ThemeResolver.Pass {
    mutating func checkGuards(_ instance: ResolvedInstance, pairs: ContrastCheck.Pairs, sources: [OperationSyntax]) {
        guard !overridable.isEmpty, resolver.contrast != nil, !pairs.pairs.isEmpty else { return }
        let signatures = resolver.schema.operations(of: instance.component)
        func colorObject(_ operation: OperationSyntax, role: ColorRole) -> TypedObject? {
            let signature = signatures?[operation.name]
            return operation.params.first { param in
                signature?.params.first { $0.name == param.name }?.role == role
            }?.object
        }
        for pair in pairs.pairs {
            let text = sources[pair.index]
            let state = instance.operations[pair.index].state
            let background =
                sources.first { $0.name == pair.backgroundOperation && $0.state == state }
                ?? sources.first { $0.name == pair.backgroundOperation && $0.state == .normal }
            guard let textObject = colorObject(text, role: .textColor),
                let background, let backgroundObject = colorObject(background, role: .backgroundColor)
            else { continue }
            var seen: Set<String> = []
            let choices = choicesReached(from: textObject, seen: &seen)
                .union(choicesReached(from: backgroundObject, seen: &seen))
            guard !choices.isEmpty else { continue }
            var plainSeen: Set<String> = []
            let backgroundNames = plainTargets(of: backgroundObject, seen: &plainSeen)
            var guardSeen: Set<String> = []
            if let guarded = contrastGuard(of: textObject, seen: &guardSeen), backgroundNames.contains(guarded) {
                continue
            }
            let named = choices.sorted().map { "'\($0)'" }.joined(separator: ", ")
            let suggestion =
                backgroundNames.sorted().first { overridable.contains($0) } ?? backgroundNames.sorted().first
            let how =
                suggestion.map {
                    "derive the text colour with contrast-with=\"\($0)\" so it stays readable on whatever the user picks"
                } ?? "give the background a constant and derive the text colour with contrast-with naming it"
            report(
                .warning(
                    .contrastUnguarded,
                    "\(text.name) of '\(instance.id)' (state \(state)) on its \(background.name) depends on the user's choice of \(named), which can make it unreadable; \(how)",
                    at: text.location))
        }
    }

    /// The overridable constants a value depends on: through references, `mix` and
    /// `contrast-with`, and the constants those name.
    private func choicesReached(from object: TypedObject, seen: inout Set<String>) -> Set<String> {
        switch object.content {
        case .literal: return []
        case .array(let items):
            return items.reduce(into: Set<String>()) { $0.formUnion(choicesReached(from: $1, seen: &seen)) }
        case .reference(let name): return choicesReached(fromConstant: name, seen: &seen)
        case .derived(let derived):
            var found = choicesReached(from: derived.base, seen: &seen)
            for name in derived.modifiers.namedConstants {
                found.formUnion(choicesReached(fromConstant: name, seen: &seen))
            }
            return found
        }
    }

    private func choicesReached(fromConstant name: String, seen: inout Set<String>) -> Set<String> {
        guard seen.insert(name).inserted, let constant = constants[name] else { return [] }
        var found = choicesReached(from: constant.object, seen: &seen)
        if overridable.contains(name) { found.insert(name) }
        return found
    }

    /// The constants a colour refers to directly or through plain references (no modifiers).
    private func plainTargets(of object: TypedObject, seen: inout Set<String>) -> Set<String> {
        guard case .reference(let name) = object.content, seen.insert(name).inserted else { return [] }
        guard let constant = constants[name] else { return [name] }
        return plainTargets(of: constant.object, seen: &seen).union([name])
    }

    /// The constant a colour's `contrast-with` names, on the colour itself or on the constant it
    /// refers to through plain references.
    private func contrastGuard(of object: TypedObject, seen: inout Set<String>) -> String? {
        switch object.content {
        case .derived(let derived):
            if case .constant(let name)? = derived.modifiers.contrast?.operand { return name }
            return nil
        case .reference(let name):
            guard seen.insert(name).inserted, let constant = constants[name] else { return nil }
            return contrastGuard(of: constant.object, seen: &seen)
        default: return nil
        }
    }
}
