import Foundation

/// `body(0..<count)` on up to `jobs` threads, the results in index order: each worker takes the
/// next index in order, so work is handed out as it is done. One pool for every tool that checks
/// or builds themes in parallel (`ThemeWorkspace.validate`, the build command's queue).
public enum ParallelMap {
    /// The stack of each worker thread: resolution recurses as deep as the reference limit
    /// allows, so every worker gets what the main thread has.
    public static let stackSize = 8 << 20

    /// `body` must be safe to call from several threads at once; this thread is one of the
    /// workers, and the call returns when every index is done.
    public static func map<T>(_ count: Int, jobs: Int, _ body: @escaping (Int) -> T) -> [T] {
        let workers = min(max(jobs, 1), count)
        guard workers > 1 else { return (0..<count).map(body) }
        let work = Work(count: count, body: body)
        let group = DispatchGroup()
        for _ in 1..<workers {
            group.enter()
            let thread = Thread {
                work.run()
                group.leave()
            }
            thread.stackSize = stackSize
            thread.start()
        }
        work.run()
        group.wait()
        return work.results.map { $0! }
    }

    /// The shared state of one map: the next index to take and the results, behind a lock.
    private final class Work<T>: @unchecked Sendable {
        let lock = NSLock()
        let count: Int
        let body: (Int) -> T
        var next = 0
        var results: [T?]

        init(count: Int, body: @escaping (Int) -> T) {
            self.count = count
            self.body = body
            self.results = Array(repeating: nil, count: count)
        }

        func run() {
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < count else { return }
                let result = body(index)
                lock.lock()
                results[index] = result
                lock.unlock()
            }
        }
    }
}
