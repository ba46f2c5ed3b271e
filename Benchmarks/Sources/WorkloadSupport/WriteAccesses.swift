import Dispatch
import Foundation

// The write-access workload (issue 46), shared by C, Strata and GRDB: many
// one-row write transactions on a pool, the `POST /authors` route of
// Examples/StrataServer without its HTTP part.

extension Fixture {
    /// The write accesses of `compare` and `strata-profile`.
    public static let writeAccessCount = 20_000
    /// The tasks that share the async write accesses, as concurrent requests
    /// of a server do.
    public static let writeAccessTasks = 8
    /// The threads that share the synchronous write accesses in `compare`.
    public static let writeAccessThreads = 4

    /// The example server's `author` table, empty.
    public static let authorSetup: [String] = [
        "CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT)"
    ]

    /// The name and country of the author of write access `index`: short
    /// strings (stored inline by Swift, no allocation), the same for all.
    public static func author(_ index: Int) -> (name: String, country: String) {
        (index & 1 == 0 ? "Arthur" : "Barbara", "FR")
    }
}

/// Runs `body(i)` for every `i` in `0..<count`, shared by `threads` threads:
/// thread `t` runs the indexes `t`, `t + threads`... One thread runs on the
/// caller's thread (callgrind counts the caller's thread only); more run on
/// threads of their own, and the caller waits for them.
public func runOnThreads(
    _ threads: Int, count: Int, _ body: @escaping @Sendable (Int) throws -> Void
) throws {
    if threads <= 1 {
        for index in 0..<count { try body(index) }
        return
    }
    let errors = ErrorBox()
    let group = DispatchGroup()
    for thread in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            do {
                for index in stride(from: thread, to: count, by: threads) { try body(index) }
            } catch {
                errors.set(error)
            }
        }
    }
    group.wait()
    try errors.throwIfSet()
}

/// Runs `body(i)` for every `i` in `0..<count`, shared by `tasks` child
/// tasks of a task group: task `t` runs the indexes `t`, `t + tasks`...
public func runInTasks(
    _ tasks: Int, count: Int, _ body: @escaping @Sendable (Int) async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<tasks {
            group.addTask {
                for index in stride(from: task, to: count, by: tasks) { try await body(index) }
            }
        }
        try await group.waitForAll()
    }
}

/// Runs an async function from synchronous code, and waits for its result.
public func waitForAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        semaphore.signal()
    }
    semaphore.wait()
    return try box.result!.get()
}

/// The first error of several threads.
private final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?

    func set(_ error: any Error) {
        lock.withLock { if self.error == nil { self.error = error } }
    }

    func throwIfSet() throws {
        if let error = lock.withLock({ error }) { throw error }
    }
}

/// The result of a task, read after the semaphore that it signals.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
