import Strata
import StrataTestSupport
import Testing

/// Runs the sample of
/// `Sources/Strata/Strata.docc/SharingADatabaseBetweenProcesses.md`
/// (`ArticleSampleTests` checks that it is here), on a file of a temporary
/// directory. The observation of another process's commits is tested in
/// `Tests/StrataTests/Observation/ExternalChanges/`.
struct SharingADatabaseBetweenProcessesGuideTests {
    private struct Player: Codable, FetchableRecord, TableRecord {
        var id: Int64
    }

    /// The sample: prints the number of players until its task is cancelled.
    private static func printPlayerCounts(path: String) async throws {
        var config = Configuration()
        config.observesExternalChanges = true
        let dbPool = try DatabasePool(path: path, configuration: config)
        for try await count in ValueObservation.tracking(Player.fetchCount).values(in: dbPool) {
            print("\(count) players")  // also after another process inserts one
        }
    }

    @Test func theSampleRunsUntilCancelled() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)")
        }
        let printing = Task { try await Self.printPlayerCounts(path: path) }
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        printing.cancel()
        _ = await printing.result
        withExtendedLifetime(directory) {}
    }
}
