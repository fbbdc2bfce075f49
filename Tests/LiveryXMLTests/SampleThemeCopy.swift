import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// A copy of the repository's Themes/ folder in a temporary folder, with one edit applied: the
/// way a designer makes a mistake. Removed when the value goes away.
final class SampleThemeCopy {
    let path: String

    static let repositoryThemes: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/Themes"
    }()

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("livery-copy-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: Self.repositoryThemes, toPath: path)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Replaces the first `old` in `file` (relative to the copy) with `new`; fails the test when
    /// `old` is not there, so an edit cannot silently stop applying when the samples change.
    func edit(
        _ file: String, replacing old: String, with new: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let url = URL(fileURLWithPath: path + "/" + file)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let range = text.range(of: old) else {
            Issue.record("'\(old)' is not in \(file)", sourceLocation: sourceLocation)
            throw CheckedError.noValue
        }
        try text.replacingCharacters(in: range, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    func write(_ file: String, _ contents: String) throws {
        try contents.write(toFile: path + "/" + file, atomically: true, encoding: .utf8)
    }

    /// `livery validate` of the whole copy, with paths made relative to it (`Base.theme/Chat.xml`).
    /// (Tests run in parallel, so the copy is not made the current folder.)
    func validate() -> [Diagnostic] {
        ThemeWorkspace().validate(paths: [path]).map(relative)
    }

    func relative(_ diagnostic: Diagnostic) -> Diagnostic {
        func strip(_ location: LiveryModel.SourceLocation?) -> LiveryModel.SourceLocation? {
            guard var location else { return nil }
            if location.file.hasPrefix(path + "/") { location.file.removeFirst(path.count + 1) }
            return location
        }
        var result = diagnostic
        result.location = strip(diagnostic.location)
        result.notes = diagnostic.notes.map { Diagnostic.Note($0.message, at: strip($0.location)) }
        result.fix = diagnostic.fix?.mappingPaths { strip(LiveryModel.SourceLocation(file: $0))!.file }
        return result
    }
}
