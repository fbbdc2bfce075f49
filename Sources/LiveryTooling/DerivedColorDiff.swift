import LiveryModel
import LiveryXML

/// A derived colour constant (format 1.3, section 9.1) that resolves differently in two versions
/// of a theme: its colour and its derivation before and after, so a review sees why (a changed
/// base, amount or space) beside the instances that change with it.
public struct DerivedColorChange: Hashable, Sendable {
    public var name: String
    /// Nil where the constant is missing on that side.
    public var old: Color?
    public var new: Color?
    /// `explain`'s derivation lines on each side (empty where it is not derived there).
    public var oldDerivation: [String]
    public var newDerivation: [String]
}

extension ThemeDiff {
    /// Adds, before the instance changes, each colour constant derived on either side whose
    /// colour differs between `old` and `new` (the constants of each compared trait set, as
    /// `constants(ofThemeAt:traitSets:workspace:)` gives them for a folder). Changes equal in
    /// several trait sets are one change, scoped as the others are.
    public mutating func addDerivedColors(old: [TraitSet: [ResolvedConstant]], new: [TraitSet: [ResolvedConstant]]) {
        var order: [DerivedColorChange] = []
        var seen: [DerivedColorChange: [TraitSet]] = [:]
        for set in traitSets {
            let before = Dictionary((old[set] ?? []).map { ($0.name, $0) }, uniquingKeysWith: { $1 })
            let after = Dictionary((new[set] ?? []).map { ($0.name, $0) }, uniquingKeysWith: { $1 })
            for name in Set(before.keys).union(after.keys).sorted() {
                let was = before[name]
                let now = after[name]
                guard was?.modifiers != nil || now?.modifiers != nil else { continue }
                func color(_ constant: ResolvedConstant?) -> Color? {
                    if case .color(let color)? = constant?.value { return color }
                    return nil
                }
                guard color(was) != nil || color(now) != nil, color(was) != color(now) else { continue }
                let change = DerivedColorChange(
                    name: name, old: color(was), new: color(now), oldDerivation: was?.derivation ?? [],
                    newDerivation: now?.derivation ?? [])
                if seen[change] == nil { order.append(change) }
                seen[change, default: []].append(set)
            }
        }
        let added = order.map { change in
            let traits = seen[change] ?? []
            return Change(
                kind: .derivedColorChanged, instance: "", component: "", operation: nil, old: nil, new: nil,
                traits: traits, scope: Self.scope(of: traits, among: traitSets), oldComponent: nil, constant: change)
        }
        changes = added + changes
    }

    /// The constants of the theme folder at `path` for each trait set, or nil when it does not
    /// resolve (a compiled file keeps no constants).
    public static func constants(ofThemeAt path: String, traitSets: [TraitSet], workspace: ThemeWorkspace)
        -> [TraitSet: [ResolvedConstant]]?
    {
        guard workspace.isThemeFolder(path) else { return nil }
        var result: [TraitSet: [ResolvedConstant]] = [:]
        for set in traitSets {
            guard let constants = workspace.constants(ofThemeAt: path, traits: set, keepingWhatResolves: true).value
            else { return nil }
            result[set] = constants
        }
        return result
    }

    /// `~ accentStrong (derived colour): #0062CCFF -> #0055B3FF` and the derivation before and after.
    static func text(_ change: DerivedColorChange) -> String {
        let old = change.old?.hexString ?? "(none)"
        let new = change.new?.hexString ?? "(none)"
        var line = "~ \(change.name) (derived colour): \(old) -> \(new)"
        if let was = change.oldDerivation.first { line += "\n    was \(was)" }
        if let now = change.newDerivation.first { line += "\n    now \(now)" }
        return line
    }

    static func json(_ change: DerivedColorChange) -> [(String, JSONValue)] {
        [
            ("constant", .string(change.name)),
            ("oldColor", change.old.map { .string($0.hexString) } ?? .null),
            ("newColor", change.new.map { .string($0.hexString) } ?? .null),
            ("oldDerivation", .array(change.oldDerivation.map(JSONValue.string))),
            ("newDerivation", .array(change.newDerivation.map(JSONValue.string))),
        ]
    }
}
