import Foundation

/// What is known about a partial download `<name>.part`, kept beside it as `<name>.part.json`: the
/// URL, the validator the server gave the bytes (a strong ETag, or Last-Modified), and the size
/// and SHA-256 the whole file must have. A partial is resumed only when all of them still hold;
/// one without this record is never resumed (there is nothing to send in `If-Range`).
struct PartialDownload: Codable, Hashable, Sendable {
    var url: String
    /// Sent back as `If-Range`: the server sends the rest only when the file is still this one.
    var validator: String
    var expectedSize: Int64?
    var expectedSHA256: String?

    static func recordPath(for path: String) -> String { path + ".json" }

    static func load(for path: String) -> PartialDownload? {
        guard let data = FileManager.default.contents(atPath: recordPath(for: path)) else { return nil }
        return try? JSONDecoder().decode(PartialDownload.self, from: data)
    }

    /// Written atomically (temp + rename) before the first byte of the body is.
    func save(for path: String) throws {
        let record = Self.recordPath(for: path)
        let data = try JSONEncoder().encode(self)
        try ProductInstaller.writeDurably(data, to: record + ".tmp")
        guard rename(record + ".tmp", record) == 0 else {
            throw StoreError.io("cannot save \(record)")
        }
    }

    /// Removes the partial file and its record.
    static func remove(at path: String) {
        unlink(recordPath(for: path))
        unlink(path)
    }

    /// The validator to resume with, from a response's headers: a strong ETag, else Last-Modified
    /// (`If-Range` accepts no weak ETag); nil when the server gave neither.
    static func validator(etag: String?, lastModified: String?) -> String? {
        if let etag = etag?.trimmingCharacters(in: .whitespaces), etag.hasPrefix("\""), etag.count >= 2 {
            return etag
        }
        if let lastModified = lastModified?.trimmingCharacters(in: .whitespaces), !lastModified.isEmpty {
            return lastModified
        }
        return nil
    }

    /// `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`).
    static func parseContentRange(_ value: String?) -> (start: Int64, end: Int64, total: Int64?)? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), value.lowercased().hasPrefix("bytes ") else {
            return nil
        }
        let rest = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start >= 0, end >= start
        else { return nil }
        if halves[1] == "*" { return (start, end, nil) }
        guard let total = Int64(halves[1]), total > end else { return nil }
        return (start, end, total)
    }
}
