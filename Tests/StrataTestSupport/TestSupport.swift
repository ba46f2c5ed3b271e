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

extension TemporaryDirectory {
    /// Runs `body` with the path of a database file in a new temporary
    /// directory, removed when `body` returns. For exit tests: their child
    /// process stops without running deinitializers, so the directory must
    /// belong to the parent, which passes the path to the child.
    ///
    /// ```swift
    /// try await TemporaryDirectory.withDatabasePath { path in
    ///     await #expect(processExitsWith: .failure) { [path = path as String] in ... }
    /// }
    /// ```
    package static func withDatabasePath(_ body: (String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        try await body(directory.path("db.sqlite"))
        withExtendedLifetime(directory) {}
    }
}
