import Foundation
import LiveryModel

/// A message from the client, decoded.
struct IncomingMessage {
    var id: JSONValue?
    var method: String
    var params: JSONValue
    /// Whether it is a request (has an id) rather than a notification.
    var isRequest: Bool { id != nil }
}

/// The messages read and not yet handled, shared by the reading thread and the working one.
/// `$/cancelRequest` never waits in line: it marks its request here at once, so a request still
/// waiting is answered as cancelled without being worked on.
final class Inbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var messages: [IncomingMessage] = []
    private var cancelled: Set<String> = []
    private var closed = false

    func put(_ message: IncomingMessage) {
        condition.withLock {
            if message.method == "$/cancelRequest", let id = message.params["id"] {
                cancelled.insert(id.rendered(pretty: false))
            } else {
                messages.append(message)
            }
            condition.signal()
        }
    }

    func close() {
        condition.withLock {
            closed = true
            condition.signal()
        }
    }

    /// The next message; nil once the stream is closed and every message taken. With
    /// `waiting: false`, nil at once when none is waiting.
    func take(waiting: Bool = true) -> IncomingMessage? {
        condition.withLock {
            while messages.isEmpty {
                if closed || !waiting { return nil }
                condition.wait()
            }
            return messages.removeFirst()
        }
    }

    var isEmpty: Bool { condition.withLock { messages.isEmpty } }

    /// Whether the client closed the stream and every message was taken.
    var isClosed: Bool { condition.withLock { closed && messages.isEmpty } }

    /// Whether a change to a document is waiting: work on the older text would be stale.
    var hasPendingEdit: Bool {
        condition.withLock {
            messages.contains {
                ["textDocument/didChange", "textDocument/didOpen", "textDocument/didClose"].contains($0.method)
            }
        }
    }

    /// Whether the client cancelled request `id` (and forgets it).
    func takeCancellation(of id: JSONValue) -> Bool {
        condition.withLock { cancelled.remove(id.rendered(pretty: false)) != nil }
    }
}
