import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// A folder of small themes written from strings, removed when the value goes away.
final class TemporaryThemes {
    let path: String

    /// `files` maps relative paths (`Base.theme/Info.xml`) to contents.
    init(_ files: [String: String]) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("livery-\(UUID().uuidString)").path
        for (relative, contents) in files {
            let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func theme(_ name: String) -> String { path + "/" + name }

    static func info(_ id: String, parent: String? = nil) -> String {
        "<theme-info id=\"\(id)\" name=\"\(id)\"\(parent.map { " parent=\"\($0)\"" } ?? "")/>"
    }

    /// One `<uiview id=...>` per pair, each with one `alpha` value.
    static func alpha(_ id: String, _ value: String) -> String {
        """
        <theme><instances><uiview id="\(id)"><operation name="alpha"><param name="value"><float>\(value)</float></param></operation></uiview></instances></theme>
        """
    }
}

extension Checked {
    /// The value, failing the test with the diagnostics when there is none.
    func unwrap(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Value {
        guard let value else {
            Issue.record(
                "expected a value; diagnostics: \(diagnostics.map(\.description))", sourceLocation: sourceLocation)
            throw CheckedError.noValue
        }
        return value
    }
}

enum CheckedError: Error { case noValue }
