import Strata
import Testing

/// The sample of `Sources/Strata/Strata.docc/ReadReplicas.md`
/// (`ArticleSampleTests` checks that it is here). It opens the replica a
/// Litestream follower keeps at a path of the reader's, so it is compiled,
/// not run; `Tests/StrataTests/Replication/` runs replicas, and CI runs one
/// behind a real follower (`IntegrationTests/Litestream/replica.sh`).
struct ReadReplicasGuideTests {
    private struct Player: Codable, FetchableRecord, TableRecord {
        var id: Int64
    }

    func replicaSample() async throws {
        let replica = try DatabaseReplica(path: "/var/lib/app/replica.sqlite")

        // Reads, as from any DatabaseReader
        let playerCount = try await replica.read { db in
            try Player.fetchCount(db)
        }

        // A fresh value after each change that the follower applies
        let observation = ValueObservation.tracking { db in
            try Player.fetchCount(db)
        }.removeDuplicates()
        for try await count in observation.values(in: replica) {
            print("Players: \(count)")
        }
        _ = playerCount
    }
}
