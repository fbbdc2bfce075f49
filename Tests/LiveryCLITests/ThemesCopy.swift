import Foundation
import Testing

/// A copy of Themes/ in a temporary folder (removed afterwards), with edits applied.
final class ThemesCopy {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("livery-report-\(UUID().uuidString)").path
    init() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Livery.root + "/Themes", toPath: path + "/Themes")
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func edit(_ file: String, _ old: String, _ new: String) throws {
        let url = URL(fileURLWithPath: path + "/" + file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let range = try #require(text.range(of: old), "'\(old)' is not in \(file)")
        try text.replacingCharacters(in: range, with: new).write(to: url, atomically: true, encoding: .utf8)
    }
    func write(_ file: String, _ text: String) throws {
        try text.write(toFile: path + "/" + file, atomically: true, encoding: .utf8)
    }
    func read(_ file: String) throws -> String { try String(contentsOfFile: path + "/" + file, encoding: .utf8) }
}
