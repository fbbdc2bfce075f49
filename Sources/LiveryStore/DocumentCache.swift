import Foundation

/// The last verified copy of a document (catalog, root, details) and what the server said about
/// it: its validators, to revalidate it with `If-None-Match` / `If-Modified-Since`, and how long
/// it is fresh (`Cache-Control: max-age`, less `Age`), to skip the request meanwhile. A copy is
/// only ever kept after it verified, and verified again each time it is used.
struct CachedDocument: Codable, Hashable, Sendable {
    var url: String
    var etag: String?
    var lastModified: String?
    /// When the server last sent or confirmed it.
    var storedAt: Date
    /// Seconds from `storedAt` during which it is used without asking (nil: always revalidate).
    var freshFor: Double?
    /// The SHA-256 of the body file, so that a torn or edited body is not used.
    var sha256: String

    func isFresh(at now: Date) -> Bool {
        guard let freshFor else { return false }
        return now >= storedAt && now.timeIntervalSince(storedAt) < freshFor
    }

    /// `max-age` less `Age`, unless `no-cache` or `no-store` (nil: revalidate every time).
    static func freshness(cacheControl: String?, age: String?) -> Double? {
        guard let cacheControl else { return nil }
        var maxAge: Double?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if parts[0] == "no-cache" || parts[0] == "no-store" { return nil }
            if parts[0] == "max-age", parts.count == 2, let seconds = Double(parts[1].trimmingCharacters(in: ["\""])),
                seconds >= 0
            {
                maxAge = seconds
            }
        }
        guard let maxAge else { return nil }
        let used = age.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return max(0, maxAge - used)
    }
}

/// A folder of `CachedDocument`s: `<sha256 of the URL>.json` beside `<…>.body`, each written
/// atomically (temp + rename), the body first.
struct DocumentCache: Sendable {
    let folder: String

    private func paths(_ url: String) -> (record: String, body: String) {
        let key = Hashing.sha256(Data(url.utf8))
        return (folder + "/\(key).json", folder + "/\(key).body")
    }

    /// The copy and its record; nil when absent, unreadable, or the body is not the recorded one.
    func load(_ url: String) -> (CachedDocument, Data)? {
        let (recordPath, bodyPath) = paths(url)
        guard let recordData = FileManager.default.contents(atPath: recordPath),
            let record = try? JSONDecoder().decode(CachedDocument.self, from: recordData), record.url == url,
            let body = FileManager.default.contents(atPath: bodyPath), Hashing.sha256(body) == record.sha256
        else { return nil }
        return (record, body)
    }

    func save(_ record: CachedDocument, body: Data) {
        let (recordPath, bodyPath) = paths(record.url)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard (try? ProductInstaller.writeDurably(body, to: bodyPath + ".tmp")) != nil,
            rename(bodyPath + ".tmp", bodyPath) == 0,
            let data = try? JSONEncoder().encode(record),
            (try? ProductInstaller.writeDurably(data, to: recordPath + ".tmp")) != nil
        else { return }
        rename(recordPath + ".tmp", recordPath)
    }

    func remove(_ url: String) {
        let (recordPath, bodyPath) = paths(url)
        unlink(recordPath)
        unlink(bodyPath)
    }
}

/// A document as fetched: its bytes, whether they are the cached copy (fresh, or confirmed by a
/// `304`), and the record to keep once they verified.
struct FetchedDocument: Sendable {
    var data: Data
    var fromCache: Bool
    var record: CachedDocument?
}
