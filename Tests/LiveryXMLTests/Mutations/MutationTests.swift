import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// Proof of "one finding per cause" by mutation: every kind of everyday mistake is made at every
/// place of the sample themes where it applies, one at a time, on a copy, and validated in
/// process. Each must give exactly one finding, at the mutated line (or at the file, for a file
/// name), with the kind's severity; where the finding offers a text fix, applying it must give
/// back a theme that validates clean. A mutation that leaves a valid theme is no case (an
/// instance defined in two files is legal), and is counted as skipped.
@Suite struct MutationTests {
    static let samples: SampleThemeTexts? = try? SampleThemeTexts(root: SampleThemeCopy.repositoryThemes)

    /// Places per kind checked: the same token mutated the same way in one file is one place
    /// (the first), and past this many distinct places a kind checks an even spread of them, so
    /// the run stays within CI's time. `LIVERY_MUTATIONS=all` checks every distinct place.
    static let placesPerKind: Int = ProcessInfo.processInfo.environment["LIVERY_MUTATIONS"] == "all" ? .max : 12

    /// `LIVERY_MUTATION_KINDS="wrong case,file renamed"` runs only those kinds (with
    /// `LIVERY_MUTATIONS=all`, every place of a kind being worked on).
    static let kinds: Set<String>? = ProcessInfo.processInfo.environment["LIVERY_MUTATION_KINDS"]
        .map { Set($0.split(separator: ",").map(String.init)) }

    @Test(arguments: MutationKind.allCases)
    func everyMistakeIsOneFindingAtItsPlace(_ kind: MutationKind) throws {
        if let kinds = Self.kinds, !kinds.contains(kind.rawValue) { return }
        let samples = try #require(Self.samples)
        let all = samples.mutations(kind)
        #expect(!all.isEmpty, "no place in the sample themes for \(kind)")
        let mutations = Self.selection(of: all, limit: Self.placesPerKind)
        let bench = try MutationBench()
        var outcome = MutationOutcome()
        let start = clock()
        for mutation in mutations {
            outcome.add(bench.check(mutation, samples: samples))
        }
        let seconds = Double(clock() - start) / Double(CLOCKS_PER_SEC)
        print(
            "mutations: \(kind): \(all.count) places, \(mutations.count) distinct checked: \(outcome.summary); "
                + String(format: "%.1f s of CPU", seconds))
        for failure in outcome.failures { Issue.record(Comment(rawValue: failure)) }
    }

    /// One mutation per distinct change (file, old text, new text). Past `limit`: first the first
    /// place of each distinct token in turn (every component type, section, typed object... before
    /// a second place of any), two thirds of the places; then an even spread over the rest.
    static func selection(of mutations: [Mutation], limit: Int) -> [Mutation] {
        var seen: Set<String> = []
        let distinct = mutations.filter { seen.insert($0.shape).inserted }
        guard distinct.count > limit else { return distinct }
        var firsts: [Int] = []
        var tokens: Set<String> = []
        for (index, mutation) in distinct.enumerated() where tokens.insert(mutation.token).inserted {
            firsts.append(index)
        }
        let chosen = Array(firsts.prefix(limit * 2 / 3))
        let rest = distinct.indices.filter { !chosen.contains($0) }
        let spread = (0..<(limit - chosen.count)).map { rest[$0 * rest.count / (limit - chosen.count)] }
        return (chosen + spread).sorted().map { distinct[$0] }
    }
}

/// What the mutations of one kind came to.
struct MutationOutcome {
    var checked = 0
    var skipped = 0
    var fixesApplied = 0
    var failures: [String] = []

    enum Result {
        case skipped
        case passed(fixApplied: Bool)
        case failed(String)
    }

    mutating func add(_ result: Result) {
        switch result {
        case .skipped: skipped += 1
        case .passed(let fixed):
            checked += 1
            if fixed { fixesApplied += 1 }
        case .failed(let why):
            checked += 1
            failures.append(why)
        }
    }

    var summary: String {
        "\(checked) places checked, \(failures.count) failed, \(fixesApplied) fixes applied, \(skipped) skipped (still valid)"
    }
}

/// A copy of the sample themes that mutations are applied to and taken back from.
final class MutationBench {
    let copy: SampleThemeCopy
    /// One workspace for every mutation: a theme folder a mutation touches is read again, the
    /// others are read once.
    let workspace = ThemeWorkspace()

    init() throws { copy = try SampleThemeCopy() }

    func path(_ relative: String) -> String { copy.path + "/" + relative }

    func validate() -> [Diagnostic] { workspace.validate(paths: [copy.path]).map(copy.relative) }

    /// The theme folders of files a change touches.
    func touch(_ changes: [Mutation.Change]) {
        for change in changes {
            let files: [String]
            switch change {
            case .write(let file, _): files = [file]
            case .rename(let from, let to): files = [from, to]
            }
            for file in files { workspace.forget(themeAt: path(String(file.prefix { $0 != "/" }))) }
        }
    }

    func apply(_ changes: [Mutation.Change]) throws {
        for change in changes {
            switch change {
            case .write(let file, let contents):
                try contents.write(toFile: path(file), atomically: false, encoding: .utf8)
            case .rename(let from, let to):
                // into a subfolder it may create (`values-night/`)
                let folder = (path(to) as NSString).deletingLastPathComponent
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try FileManager.default.moveItem(atPath: path(from), toPath: path(to))
            }
        }
        touch(changes)
    }

    func undo(_ changes: [Mutation.Change], samples: SampleThemeTexts) throws {
        for change in changes.reversed() {
            switch change {
            case .write(let file, _):
                try samples.texts[file]!.write(toFile: path(file), atomically: false, encoding: .utf8)
            case .rename(let from, let to):
                try FileManager.default.moveItem(atPath: path(to), toPath: path(from))
                // a subfolder the move created goes with it
                let folder = (path(to) as NSString).deletingLastPathComponent
                if folder != (path(from) as NSString).deletingLastPathComponent,
                    (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true
                {
                    try FileManager.default.removeItem(atPath: folder)
                }
            }
        }
        touch(changes)
    }

    func check(_ mutation: Mutation, samples: SampleThemeTexts) -> MutationOutcome.Result {
        do {
            try apply(mutation.changes)
            defer { try? undo(mutation.changes, samples: samples) }
            let findings = validate()
            if findings.isEmpty { return .skipped }
            let listing = findings.map { "  " + $0.description + $0.notes.map { "\n    " + $0.description }.joined() }
                .joined(separator: "\n")
            guard findings.count == 1, let finding = findings.first else {
                return .failed("\(mutation): \(findings.count) findings, expected 1:\n\(listing)")
            }
            let place = Mutation.Place(file: finding.location?.file ?? "", line: finding.location?.line)
            guard mutation.places.contains(place) else {
                return .failed(
                    "\(mutation): the finding is at \(place), expected \(mutation.places.map(\.description).joined(separator: " or ")):\n\(listing)"
                )
            }
            guard finding.severity == mutation.kind.severity else {
                return .failed("\(mutation): a \(finding.severity), expected a \(mutation.kind.severity):\n\(listing)")
            }
            // exit semantics: validate fails (exit 1) exactly when a finding is an error
            guard findings.hasErrors == (finding.severity == .error) else {
                return .failed("\(mutation): exit status does not follow the severity")
            }
            guard let fix = finding.fix else {
                // a hint that knows the value meant must offer it as the fix
                if mutation.kind.requiresFix { return .failed("\(mutation): no fix offered:\n\(listing)") }
                return .passed(fixApplied: false)
            }
            // the fix, applied as an editor would (every edit, in every file it names), must
            // leave a theme that validates clean
            let changed: [String]
            do {
                changed = try FixWriter.apply(finding, path: path)
            } catch {
                return .failed("\(mutation): the fix (\(fix.title)) does not apply: \(error):\n\(listing)")
            }
            touch(changed.map { .write(file: $0, contents: "") })
            defer {
                // a file the mutation did not change is put back here; the others by undo
                for file in changed {
                    if let original = samples.texts[file] {
                        try? original.write(toFile: path(file), atomically: false, encoding: .utf8)
                    }
                }
                touch(changed.map { .write(file: $0, contents: "") })
            }
            let after = validate()
            guard after.isEmpty else {
                return .failed(
                    "\(mutation): after its fix (\(fix.title)) the themes still have findings:\n"
                        + after.map { "  " + $0.description }.joined(separator: "\n"))
            }
            return .passed(fixApplied: true)
        } catch {
            return .failed("\(mutation): \(error)")
        }
    }
}
