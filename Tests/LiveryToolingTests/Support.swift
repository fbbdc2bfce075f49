import Foundation
import LiveryModel
import LiveryXML
import Testing

/// A folder of small themes written from strings, removed when the value goes away.
final class Scratch {
    let path: String

    /// `files` maps relative paths (`Base.theme/Info.xml`) to contents.
    init(_ files: [String: String]) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("livery-tooling-\(UUID().uuidString)").path
        try write(files)
    }

    func write(_ files: [String: String]) throws {
        for (relative, contents) in files {
            let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func callAsFunction(_ relative: String) -> String { path + "/" + relative }

    static func info(_ id: String, parent: String? = nil) -> String {
        "<theme-info id=\"\(id)\" name=\"\(id)\"\(parent.map { " parent=\"\($0)\"" } ?? "")/>"
    }
}

/// The repository's sample themes.
enum Samples {
    static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()
    static let themes = root + "/Themes"
    static func theme(_ name: String) -> String { themes + "/" + name + ".theme" }
}

extension Checked {
    func unwrap(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Value {
        guard let value else {
            Issue.record(
                "expected a value; diagnostics: \(diagnostics.map(\.description))", sourceLocation: sourceLocation)
            throw NoValue()
        }
        return value
    }
}

struct NoValue: Error {}
