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
        // A connection that closes on another thread meanwhile deletes its
        // `-wal` and `-shm` files while FileManager removes the folder, which
        // then stops on "no such file" and leaves the folder behind: remove
        // again, a few times.
        var failure: (any Error)?
        for _ in 0..<10 {
            do {
                try FileManager.default.removeItem(at: url)
                return
            } catch {
                failure = error
                if !FileManager.default.fileExists(atPath: url.path) { return }
            }
        }
        FileHandle.standardError.write(
            Data("TemporaryDirectory: \(url.path) not removed: \(failure.map { "\($0)" } ?? "")\n".utf8))
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
