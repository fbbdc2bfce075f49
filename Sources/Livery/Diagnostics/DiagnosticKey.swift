import LiveryBinary
import LiveryModel

/// What a finding is about, for de-duplication (`DiagnosticHook.report(_:key:)`): findings
/// with equal keys are one problem, delivered once. Any hashable value makes a key, an enum
/// case naming the problem's subjects for instance; keys of different types are never equal.
public struct DiagnosticKey: Hashable {
    private let value: AnyHashable

    /// The key of `value`: equal to another key made from an equal value of the same type.
    public init(_ value: some Hashable) {
        self.value = AnyHashable(value)
    }
}

/// The runtime's own findings, by what they are about.
enum RuntimeFinding: Hashable {
    // Found while applying; reported per prepared theme through `applying`.
    case valueMismatch(instance: String, operation: String, state: ControlState)
    case unboundComponent(component: String)
    case componentMismatch(instance: String, type: String)
    case unknownIdentifier(String)
    case unknownOperation(component: String, operation: String)
    case unexpectedState(component: String, operation: String, state: ControlState)
    /// A finding of an apply pass under one theme, trait set and generation of the manager's
    /// themes: a new theme may have new problems.
    indirect case applying(RuntimeFinding, themeID: String?, traits: TraitSet?, generation: Int)

    // Bindings.
    case bindingNamesNoParent(component: String, declared: String)
    case notInherited(component: String, ancestor: String)

    // Themes, files and configuration.
    case corruptFile(String, offset: Int?)
    case unavailableAsset(themeID: String, traits: TraitSet, scale: Int, image: String)
    case load(generation: Int, source: String, Diagnostic)
    case stale(generation: Int, file: String)
    case unavailableTheme(generation: Int, themeID: String)
    case unreadableSearchPath(generation: Int, path: String)
    case info(generation: Int, path: String, Diagnostic)
    case duplicateTheme(generation: Int, path: String)
    case configuration(Diagnostic)
    case configurationNotAFile(url: String)
    case missingConfigurationResource(bundle: String, resource: String)

    // Personal choices.
    case choiceRefused(themeID: String, name: String, value: Value)
    case choiceProblem(themeID: String, ChoiceProblem)
}

extension DiagnosticHook {
    /// Delivers `diagnostic` unless `finding` was delivered before.
    func report(_ diagnostic: Diagnostic, finding: RuntimeFinding) {
        report(diagnostic, key: DiagnosticKey(finding))
    }
}
