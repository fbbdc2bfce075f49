import Crypto
import Foundation

/// SHA-256 helpers: packages name every file by its digest, catalogs name every package by its.
public enum Hashing {
    /// Lower-case hex, the form manifests and catalogs use.
    public static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text = ""
        for byte in bytes {
            text += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }
        return text
    }

    public static func sha256(_ data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// Streams the file through SHA-256 in 64 KiB reads; returns (hex digest, size in bytes).
    public static func sha256(fileAt path: String) throws -> (digest: String, size: Int64) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.io("cannot read \(path)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        while let chunk = try handle.read(upToCount: 65_536), !chunk.isEmpty {
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        return (hex(hasher.finalize()), size)
    }
}

/// An incremental SHA-256 for downloads, hashed while the bytes arrive.
struct StreamingDigest: @unchecked Sendable {
    private var hasher = SHA256()
    private(set) var count: Int64 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
        count += Int64(bytes.count)
    }

    func finish() -> String { Hashing.hex(hasher.finalize()) }
}
