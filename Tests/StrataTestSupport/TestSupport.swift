import Foundation
import Strata

/// A temporary directory, removed at deinit.
package final class TemporaryDirectory {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// An in-memory database where `sql` has run: the schema and rows of a
/// test, in one call.
package func makeDatabase(_ sql: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue(configuration: configuration)
    try dbQueue.write { db in try db.execute(sql: sql) }
    return dbQueue
}
