import Foundation

/// Where a product's download-and-install is.
public enum ProductTaskState: Sendable, Hashable, CustomStringConvertible {
    case initializing
    /// Bytes received so far, and the total when known.
    case downloading(received: Int64, expected: Int64?)
    /// A download attempt failed in a way that can heal; the store waits, then tries again.
    case waitingToRetry(RetryWait)
    /// The package arrived with the right size and SHA-256; it is being checked and installed.
    case downloaded
    /// Installed, and the theme manager told.
    case finished
    case cancelled
    case failed(StoreError)

    public var isTerminal: Bool {
        switch self {
        case .finished, .cancelled, .failed: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .initializing: "initializing"
        case .downloading(let received, let expected):
            "downloading \(received)/\(expected.map(String.init) ?? "?") bytes"
        case .waitingToRetry(let wait): "\(wait)"
        case .downloaded: "downloaded"
        case .finished: "finished"
        case .cancelled: "cancelled"
        case .failed(let error): "failed: \(error)"
        }
    }
}

/// One product's download and install. The store runs at most one per product: a second
/// request for the same product gets this same task.
public final class ProductTask: @unchecked Sendable, Identifiable {
    /// The product's id; for a package installed by URL (`ThemeStore.installPackage(from:)`), the URL.
    public let productID: String
    private let lock = NSLock()
    private var current: ProductTaskState = .initializing
    private var installed: ProductInstaller.Outcome?
    private var observers: [UUID: AsyncStream<ProductTaskState>.Continuation] = [:]
    private var waiters: [CheckedContinuation<ProductTaskState, Never>] = []
    private var cancelRequested = false
    private var work: Task<Void, Never>?

    public var id: String { productID }

    init(productID: String) {
        self.productID = productID
    }

    /// The state now.
    public var state: ProductTaskState {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// What the install did (the product installed, the version it replaced), once `.finished`.
    public var outcome: ProductInstaller.Outcome? {
        lock.lock()
        defer { lock.unlock() }
        return installed
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelRequested
    }

    /// Every state from now on, starting with the current one; ends after a terminal state.
    public func states() -> AsyncStream<ProductTaskState> {
        AsyncStream { continuation in
            lock.lock()
            let state = current
            let key = UUID()
            if !state.isTerminal { observers[key] = continuation }
            lock.unlock()
            continuation.yield(state)
            if state.isTerminal { continuation.finish() }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.lock()
                self.observers[key] = nil
                self.lock.unlock()
            }
        }
    }

    /// Waits for the end and returns the terminal state.
    @discardableResult
    public func result() async -> ProductTaskState {
        await withCheckedContinuation { continuation in
            lock.lock()
            if current.isTerminal {
                let state = current
                lock.unlock()
                continuation.resume(returning: state)
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Stops the task. A download stops at once; an install that is already moving files
    /// into place completes (it cannot be half-done), otherwise it is abandoned.
    public func cancel() {
        lock.lock()
        cancelRequested = true
        let work = self.work
        lock.unlock()
        work?.cancel()
    }

    func start(_ body: @escaping @Sendable (ProductTask) async -> Void) {
        lock.lock()
        work = Task { await body(self) }
        lock.unlock()
    }

    /// Records what the install did, before `.finished` is announced.
    func record(_ outcome: ProductInstaller.Outcome) {
        lock.lock()
        installed = outcome
        lock.unlock()
    }

    func update(_ state: ProductTaskState) {
        lock.lock()
        guard !current.isTerminal else {
            lock.unlock()
            return
        }
        current = state
        let observers = Array(self.observers.values)
        var waiters: [CheckedContinuation<ProductTaskState, Never>] = []
        if state.isTerminal {
            self.observers = [:]
            waiters = self.waiters
            self.waiters = []
        }
        lock.unlock()
        for observer in observers {
            observer.yield(state)
            if state.isTerminal { observer.finish() }
        }
        for waiter in waiters { waiter.resume(returning: state) }
    }
}
