import Foundation
import Livery
import LiveryModel
import LiveryXML

/// Live reload for designers: watches the source folders of a manager's themes and re-applies
/// within a moment of a save. A save with errors keeps the last good theme on screen (nothing
/// is reloaded, so no component goes blank or half-styled) and reports the diagnostics through
/// the manager's `DiagnosticHook`; the next good save applies.
///
/// ```swift
/// let manager = ThemeManager.development(configurationFile: "Livery.xml")
/// let reload = LiveReload(manager: manager)
/// reload.start()          // debug builds only, typically
/// ```
///
/// It uses only the manager's public API: changes are checked with the XML front end first, and
/// only a clean result calls `manager.reloadThemes()`, whose observers (the applicators) apply
/// what changed. Watching is by polling sizes and modification times of the files under the
/// search paths and schema files (a few dozen `stat` calls per look), which behaves the same on
/// every platform and file system. A save is acted on once two looks in a row agree, so an editor
/// that writes a file in several steps causes one reload.
@MainActor
public final class LiveReload {
    public enum Outcome: Hashable, Sendable {
        /// Nothing changed since the last look.
        case unchanged
        /// Files changed and the themes were reloaded and re-applied.
        case reloaded(changedFiles: [String])
        /// Files changed but a theme has errors: the theme on screen stays; the errors were reported.
        case kept(changedFiles: [String], errors: [Diagnostic])
    }

    public let manager: ThemeManager
    /// Seconds between looks while started.
    public let interval: Double
    /// Called after every look that found a change.
    public var onChange: ((Outcome) -> Void)?
    public private(set) var lastOutcome: Outcome = .unchanged

    private var applied: SourceSnapshot
    private var pending: SourceSnapshot?
    private var task: Task<Void, Never>?
    private var saves = 0

    public init(manager: ThemeManager, interval: Double = 0.3) {
        self.manager = manager
        self.interval = max(0.01, interval)
        self.applied = SourceSnapshot(files: [:])
        self.applied = snapshot()
    }

    /// Starts polling on the main actor. Idempotent.
    public func start() {
        guard task == nil else { return }
        task = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                guard let interval = self?.interval else { return }
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                self?.tick()
            }
        }
    }

    public func stop() {
        task?.cancel()
        task = nil
    }

    public var isRunning: Bool { task != nil }

    /// One timer tick: acts on a change once it has settled (two looks agree).
    private func tick() {
        let current = snapshot()
        guard current != applied else {
            pending = nil
            return
        }
        guard current == pending else {
            pending = current
            return
        }
        pending = nil
        _ = check()
    }

    /// Looks now and acts on any change at once: what a settled tick does, and what tests call.
    @discardableResult
    public func check() -> Outcome {
        let current = snapshot()
        guard current != applied else { return .unchanged }
        let changed = current.changes(since: applied)
        applied = current
        saves += 1

        // The themes to check: the one on screen (its whole chain) and every theme a changed file belongs to.
        var folders: [String] = []
        if let id = manager.currentThemeID, let folder = manager.themes[id]?.folder { folders.append(folder) }
        for descriptor in manager.themes.values.sorted(by: { $0.info.id < $1.info.id }) {
            guard let folder = descriptor.folder, !folders.contains(folder) else { continue }
            if changed.contains(where: { $0.hasPrefix(folder + "/") }) { folders.append(folder) }
        }
        let configuration = manager.configuration
        let workspace = ThemeWorkspace(
            searchPaths: configuration.searchPaths, schemaFiles: configuration.schemaFiles,
            themeExtensions: configuration.themeExtensions)
        let errors = folders.isEmpty ? [] : workspace.validate(paths: folders).filter { $0.severity == .error }
        let outcome: Outcome
        if errors.isEmpty {
            manager.reloadThemes()
            outcome = .reloaded(changedFiles: changed)
        } else {
            for error in errors {
                manager.diagnostics.report(error, key: DiagnosticKey(DevelopmentFinding.liveReload(save: saves, error)))
            }
            let kept = manager.currentThemeID.map { "'\($0)' stays on screen" } ?? "nothing was reloaded"
            manager.diagnostics.report(
                .error(
                    .runtimeThemeUnavailable,
                    "live reload: the saved theme has \(errors.count) error\(errors.count == 1 ? "" : "s") (reported before this); \(kept) until a save fixes them",
                    at: nil),
                key: DiagnosticKey(DevelopmentFinding.liveReloadSummary(save: saves)))
            outcome = .kept(changedFiles: changed, errors: errors)
        }
        lastOutcome = outcome
        onChange?(outcome)
        return outcome
    }

    /// Every regular file under the search paths and schema files: path, size, modification time.
    private func snapshot() -> SourceSnapshot {
        SourceSnapshot.take(manager.configuration.searchPaths + manager.configuration.schemaFiles)
    }
}
