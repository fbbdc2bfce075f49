import Crypto

/// SHA-256 for source digests, from swift-crypto (BoringSSL on Linux, CryptoKit on Apple
/// platforms): a well-kept implementation rather than a hand-written one.
struct SHA256 {
    private var hasher = Crypto.SHA256()

    mutating func update(_ bytes: some Sequence<UInt8>) {
        if let done = bytes.withContiguousStorageIfAvailable({
            hasher.update(bufferPointer: UnsafeRawBufferPointer($0))
        }) {
            return done
        }
        hasher.update(data: Array(bytes))
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    mutating func finish() -> [UInt8] {
        Array(hasher.finalize())
    }

    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finish()
    }
}
