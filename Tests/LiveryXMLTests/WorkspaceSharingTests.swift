import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// One workspace shared: between the children of a parent (work done once), between threads
/// (`validate(paths:jobs:)`, a build's jobs), and across edits (`forget(themeAt:)`).
@Suite struct WorkspaceSharingTests {
    /// A parent with findings of its own (an unused constant; an unknown constant only in dark)
    /// and `count` children: most fine, some with errors, one with a clashing id, one whose
    /// parent is missing.
    static func tree(children count: Int) throws -> TemporaryThemes {
        var files: [String: String] = [
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Constants.xml": """
            <theme><constants><float name="unused">1</float><float name="opacity">0.5</float></constants>
            <instances><uiview id="card"><operation name="alpha"><param name="value"><float ref="opacity"/></param></operation></uiview></instances></theme>
            """,
            "Base.theme/Card~dark.xml": """
            <theme><instances><uiview id="card"><operation name="alpha"><param name="value"><float ref="opacitty"/></param></operation></uiview></instances></theme>
            """,
        ]
        for index in 0..<count {
            let name = String(format: "Child%03d.theme", index)
            let id = index == 7 ? "child-003" : String(format: "child-%03d", index)
            files[name + "/Info.xml"] = TemporaryThemes.info(id, parent: index == 9 ? "nobody" : "base")
            files[name + "/Brand.xml"] =
                index % 5 == 4
                ? "<theme><instances><uiwidget id=\"x\"/></instances></theme>"
                : "<theme><constants><float name=\"opacity\">0.\(index % 9 + 1)</float></constants></theme>"
            files[name + "/Brand~ipad.xml"] =
                "<theme><instances><uiview id=\"card_\(index)\"><operation name=\"alpha\"><param name=\"value\"><float>1</float></param></operation></uiview></instances></theme>"
        }
        return try TemporaryThemes(files)
    }

    /// Everything a report prints of the findings, notes and fixes included, as bytes.
    static func rendered(_ diagnostics: [Diagnostic]) -> [UInt8] {
        Array(String(reflecting: diagnostics).utf8)
    }

    @Test func validateGivesTheSameFindingsInTheSameOrderOnAnyNumberOfThreads() throws {
        let themes = try Self.tree(children: 24)
        let fixtures = ["Invalid", "Warnings", "Resolver"].map { Fixture.root + "/" + $0 }.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
        }
        let paths = [themes.path] + fixtures
        let serial = ThemeWorkspace().validate(paths: paths, jobs: 1)
        #expect(serial.contains { $0.code == .themeDuplicate })
        #expect(serial.contains { $0.code == .parentMissing })
        #expect(serial.contains { $0.notes.contains { $0.message.hasPrefix("applies to themes") } })
        #expect(serial.count > 50)
        for jobs in [2, 3, 8] {
            let parallel = ThemeWorkspace().validate(paths: paths, jobs: jobs)
            #expect(Self.rendered(parallel) == Self.rendered(serial), "jobs \(jobs)")
        }
    }

    /// Results come back in index order, not in the order the threads finish them: here the
    /// later an index, the sooner it is done.
    @Test func parallelResultsKeepTheirOrder() {
        let results = ParallelMap.map(12, jobs: 4) { index -> Int in
            usleep(UInt32((12 - index) * 3000))
            return index
        }
        #expect(results == Array(0..<12))
        #expect(ParallelMap.map(0, jobs: 4) { $0 } == [])
        #expect(ParallelMap.map(3, jobs: 1) { $0 * 2 } == [0, 2, 4])
    }

    /// `validate` keeps the resolutions of the themes `recent` can hold, the last ones it checks,
    /// for a compile that follows, and of every theme when there are no more than that.
    @Test func validateKeepsTheResolutionsOfTheLastThemesItChecks() throws {
        for (children, jobs) in [(24, 1), (24, 2), (6, 2)] {
            let themes = try Self.tree(children: children)
            let workspace = ThemeWorkspace()
            _ = workspace.validate(paths: [themes.path], jobs: jobs)
            let checked = workspace.themeFolders(in: themes.path)
            #expect(checked.count == children + 1)
            // Child009's parent is missing: it has no resolution to keep.
            let expected = Set(
                checked.suffix(workspace.recentCapacity).filter { !$0.hasSuffix("Child009.theme") }.map(
                    workspace.canonical))
            #expect(Set(workspace.recent.map(\.key)) == expected, "\(children) children, jobs \(jobs)")
            #expect(workspace.recent.count == expected.count)
        }
    }

    @Test func progressHearsEveryThemeOnceWhateverTheJobs() throws {
        let themes = try Self.tree(children: 12)
        let lock = NSLock()
        var heard: [String] = []
        var totals: Set<Int> = []
        _ = ThemeWorkspace().validate(paths: [themes.path], jobs: 3) { done, total, path in
            lock.lock()
            #expect(done == heard.count)
            heard.append(path)
            totals.insert(total)
            lock.unlock()
        }
        #expect(heard.sorted() == ThemeWorkspace().themeFolders(in: themes.path))
        #expect(totals == [13])
    }

    @Test func aSharedWorkspaceAnswersFromManyThreadsAsFromOne() throws {
        let themes = try Self.tree(children: 24)
        let paths = ThemeWorkspace().themeFolders(in: themes.path)
        let alone = paths.map { path -> String in
            let result = ThemeWorkspace().variants(ofThemeAt: path)
            return String(reflecting: result.value) + String(reflecting: result.diagnostics)
        }
        let shared = ThemeWorkspace()
        let answers = Answers(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = shared.variants(ofThemeAt: paths[index])
            answers.set(index, String(reflecting: result.value) + String(reflecting: result.diagnostics))
        }
        #expect(answers.all == alone)
    }

    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [String]
        init(count: Int) { answers = Array(repeating: "", count: count) }
        func set(_ index: Int, _ answer: String) {
            lock.lock()
            answers[index] = answer
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return answers
        }
    }

    /// Per-operation caches are sized by the chain's operations, not by the serials the workspace
    /// handed out: a theme checked after a thousand others costs what it costs alone.
    @Test func aThemesCachesDoNotGrowWithTheThemesReadBeforeIt() throws {
        let themes = try Self.tree(children: 40)
        let last = themes.theme("Child039.theme")
        let alone = try #require(ThemeWorkspace().resolver(forThemeAt: last)).0.serialCount
        let workspace = ThemeWorkspace()
        _ = workspace.validate(paths: [themes.path])
        let (resolver, _) = try #require(workspace.resolver(forThemeAt: last))
        #expect(resolver.serialCount == alone)
        #expect(resolver.chain.map(\.serials.lowerBound) != [0, 0], "the workspace read other themes first")
    }

    /// A parent edited on disk is seen by its children once it is forgotten, not before (the
    /// workspace reads a folder once).
    @Test func forgettingAParentIsSeenByItsChildren() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Card.xml": TemporaryThemes.alpha("card", "0.25"),
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Other.xml": TemporaryThemes.alpha("other", "1"),
        ])
        let workspace = ThemeWorkspace()
        func alpha() throws -> Value? {
            try workspace.resolve(themeAt: themes.theme("Child.theme"), traits: .none).unwrap()
                .instance("card")?.operations.first?.param("value")
        }
        #expect(try alpha() == .float(0.25))
        try Data(TemporaryThemes.alpha("card", "0.75").utf8).write(
            to: URL(fileURLWithPath: themes.theme("Base.theme/Card.xml")))
        #expect(try alpha() == .float(0.25))
        workspace.forget(themeAt: themes.theme("Base.theme"))
        #expect(try alpha() == .float(0.75))
    }

    /// Theme ids are indexed per searched folder once; a folder added later is found once it is
    /// forgotten (what an editor does when it creates a theme).
    @Test func aParentAddedLaterIsFoundOnceForgotten() throws {
        let themes = try TemporaryThemes([
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Other.xml": TemporaryThemes.alpha("other", "1"),
        ])
        let workspace = ThemeWorkspace()
        let child = themes.theme("Child.theme")
        #expect(workspace.resolve(themeAt: child, traits: .none).diagnostics.contains { $0.code == .parentMissing })
        let base = themes.theme("Base.theme")
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try Data(TemporaryThemes.info("base").utf8).write(to: URL(fileURLWithPath: base + "/Info.xml"))
        workspace.forget(themeAt: base)
        let resolved = workspace.resolve(themeAt: child, traits: .none)
        #expect(resolved.value != nil, "\(resolved.diagnostics)")
    }
}
