import Foundation
@testable import Strata

/// The writers of the async-access tests, on both paths an async access can
/// take: in the caller's task through a task executor (macOS 15, iOS 18,
/// Linux), or on a continuation while the queue runs the access (older
/// systems, forced here by an internal configuration switch).
package enum AsyncWriterKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case queue
    case pool
    case queueOnContinuation = "queue, continuation"
    case poolOnContinuation = "pool, continuation"

    package var description: String { rawValue }

    /// Whether async accesses run in the caller's task.
    package var runsInCallersTask: Bool {
        switch self {
        case .queue, .pool: return true
        case .queueOnContinuation, .poolOnContinuation: return false
        }
    }

    /// Opens a writer of this kind on a file of `directory`.
    package func open(_ directory: TemporaryDirectory, configuration: Configuration = Configuration()) throws
        -> any DatabaseWriter
    {
        var configuration = configuration
        configuration.usesTaskExecutorForAsyncAccesses = runsInCallersTask
        let path = directory.path("db.sqlite")
        switch self {
        case .queue, .queueOnContinuation: return try DatabaseQueue(path: path, configuration: configuration)
        case .pool, .poolOnContinuation: return try DatabasePool(path: path, configuration: configuration)
        }
    }

    /// Opens a writer of this kind on a file of `directory`, with an empty
    /// one-column table `t(a)`.
    package func openWithTable(_ directory: TemporaryDirectory, configuration: Configuration = Configuration())
        async throws -> any DatabaseWriter
    {
        let writer = try open(directory, configuration: configuration)
        try await writer.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        return writer
    }
}
