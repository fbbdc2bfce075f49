import Foundation
import ZIPFoundation

/// Writes package files (`livery pack`): a reproducible zip, atomically.
public enum PackageWriter {
    /// A reproducible zip (fixed dates, given order, deflate) written atomically: `entries` in
    /// that order, each with its bytes from `contents`.
    public static func write(entries: [String], contents: [String: Data], to output: String) throws {
        let url = URL(fileURLWithPath: output)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let archive = try Archive(url: temporary, accessMode: .create)
        let date = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01: same input, same bytes
        for path in entries {
            let data = contents[path] ?? Data()
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                permissions: 0o644, compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        if rename(temporary.path, output) != 0 {
            throw StoreError.io("cannot move the package to \(output): \(String(cString: strerror(errno)))")
        }
    }
}
