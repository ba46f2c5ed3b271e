import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite("DatabaseReplica under load")
struct DatabaseReplicaStressTests {
    @Test(
        "Reads and an observation run without error while the follower applies 20 times; each read sees a whole apply")
    func readsDuringApplies() async throws {
        let fixture = try ReplicaFixture()
        let replica = fixture.replica
        let (values, cancellable) = replica.observePlayerCount()
        let applying = Waitable(true)
        // Each apply adds 2 players in one transaction: a read that saw
        // half of one would count an even number.
        let readers = (0..<2).map { _ in
            Task {
                var counts: [Int] = []
                while applying.value {
                    counts.append(
                        try await replica.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 })
                }
                return counts
            }
        }
        for _ in 0..<20 {
            try await fixture.insertAndApply(2)
        }
        applying.update { $0 = false }
        for reader in readers {
            let counts = try await reader.value
            #expect(!counts.isEmpty)
            #expect(counts.allSatisfy { $0 % 2 == 1 && (3...43).contains($0) })
            #expect(counts == counts.sorted(), "a read saw an older state than a read before it")
        }
        #expect(await values.wait { $0.last == 43 })
        #expect(values.values == values.values.sorted())
        #expect(values.errors.isEmpty)
        #expect(try replica.playerCount() == 43)
        cancellable.cancel()
    }
}
