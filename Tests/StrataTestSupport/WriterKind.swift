import Foundation
import Strata

/// The writers a test runs against: a queue and a pool, on new files.
package enum WriterKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case queue
    case pool

    package var description: String { rawValue }

    /// Opens a writer of this kind on a file of `directory`.
    package func open(_ directory: TemporaryDirectory, configuration: Configuration = Configuration()) throws
        -> any DatabaseWriter
    {
        let path = directory.path("db.sqlite")
        switch self {
        case .queue: return try DatabaseQueue(path: path, configuration: configuration)
        case .pool: return try DatabasePool(path: path, configuration: configuration)
        }
    }
}

/// Makes a pool on a file of `directory`, with a loose `player` table (id,
/// and nullable name and score) and no rows.
package func makePlayerPool(
    _ directory: TemporaryDirectory, configuration: Configuration = Configuration()
) throws -> DatabasePool {
    let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
    try dbPool.write { db in
        try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT)")
    }
    return dbPool
}

/// Opens a pool on a file of `directory` with at most `maximumReaderCount`
/// readers.
package func makePool(
    _ directory: TemporaryDirectory, maximumReaderCount: Int, configuration: Configuration = Configuration()
) throws -> DatabasePool {
    var configuration = configuration
    configuration.maximumReaderCount = maximumReaderCount
    return try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
}
