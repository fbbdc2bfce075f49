import Foundation

/// Every way a store operation fails, with a message that says what happened and what to do.
/// A failed operation leaves the installed folder exactly as it was.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server could not be reached, or the connection dropped.
    case network(String)
    /// The server answered with a status other than 200.
    case httpStatus(Int, url: String)
    /// No byte arrived for too long, or the whole request took too long.
    case timeout(String)
    /// The download has another size than the catalog says.
    case sizeMismatch(expected: Int64, actual: Int64)
    /// A response is larger than the store accepts (a cap, not a catalog's size).
    case tooLarge(String)
    /// The download has another SHA-256 than the catalog says.
    case checksumMismatch(expected: String, actual: String)
    /// A signature, key, version or expiry check of a signed catalog or root failed, or a document
    /// does not match the digest the signed catalog gives it (see the message).
    case untrusted(String)
    /// The package is not a well-formed, safe package (see the message).
    case invalidPackage(String)
    /// The package's content failed validation or compilation (the theme's own diagnostics).
    case invalidContent(String)
    /// A theme the content depends on is neither installed nor bundled, or too old.
    case missingDependency(String)
    /// The package offers no compiled file of the format version this app reads (`offered` is
    /// empty when it carries none): the store has to publish one compiled for this app.
    case unreadableFormat(product: String, offered: [Int], reads: Int)
    /// No handler is registered for the product's type.
    case unsupportedType(String)
    /// The operation is not allowed now (e.g. uninstalling a theme another one inherits from).
    case refused(String)
    /// Nothing is installed with this id.
    case notInstalled(String)
    /// The install does not fit the cache budget even after removing everything that may go
    /// (checked before downloading): `needed` bytes, of a budget of `budget`, with `kept` bytes
    /// that must stay (the theme in use, its parents, pinned products).
    case cacheBudgetExceeded(product: String, needed: Int64, budget: Int64, kept: Int64)
    /// The operation was cancelled.
    case cancelled
    /// Reading or writing a file failed.
    case io(String)

    /// A failure the network caused (a connection, a timeout, a status that says "later"): a
    /// partial download it interrupted is kept, to be resumed.
    var isResumable: Bool {
        switch self {
        case .network, .timeout: true
        case .httpStatus(let status, _): RetryableStatus.codes.contains(status)
        default: false
        }
    }

    public var description: String {
        switch self {
        case .network(let message): "network error: \(message)"
        case .httpStatus(let status, let url): "the server answered \(status) for \(url)"
        case .timeout(let message): "timed out: \(message)"
        case .sizeMismatch(let expected, let actual): "the download has \(actual) bytes, the catalog says \(expected)"
        case .tooLarge(let message): "too large: \(message)"
        case .checksumMismatch(let expected, let actual):
            "the download's SHA-256 is \(actual), the catalog says \(expected)"
        case .untrusted(let message): "untrusted: \(message)"
        case .invalidPackage(let message): "invalid package: \(message)"
        case .invalidContent(let message): "invalid content: \(message)"
        case .missingDependency(let message): "missing dependency: \(message)"
        case .unreadableFormat(let product, let offered, let reads):
            "\(product) offers "
                + (offered.isEmpty
                    ? "no compiled file"
                    : "compiled format version\(offered.count == 1 ? "" : "s") \(offered.map(String.init).joined(separator: ", "))")
                + "; this app reads version \(reads): the store must publish the theme compiled for it (livery pack), or the app must be updated"
        case .unsupportedType(let type): "no handler is registered for products of type '\(type)'"
        case .refused(let message): "refused: \(message)"
        case .notInstalled(let id): "nothing is installed with id '\(id)'"
        case .cacheBudgetExceeded(let product, let needed, let budget, let kept):
            "'\(product)' needs \(needed) bytes, and the cache budget of \(budget) bytes has \(kept) bytes that must stay (the theme in use, its parents, pinned themes): raise the budget or uninstall something"
        case .cancelled: "cancelled"
        case .io(let message): "file error: \(message)"
        }
    }
}
