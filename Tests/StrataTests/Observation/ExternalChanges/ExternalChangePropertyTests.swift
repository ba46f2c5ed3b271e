import Foundation
import Strata
import StrataTestSupport
import Testing

/// Random sequences of external and own changes, replayed from a seed.
@Suite("External changes: property")
struct ExternalChangePropertyTests {
    @Test(
        "After each round of random external writes, rollbacks, reads and own writes, the observed value is fresh",
        arguments: [ExternalChangeWriter.poolWAL, .queueJournal])
    func observedValueIsFreshAfterEachRound(_ kind: ExternalChangeWriter) async throws {
        var generator = SeededGenerator(seed: 31)
        let directory = try TemporaryDirectory()
        let (writer, path) = try kind.open(directory)
        let values = ObservedValues<Int>()
        let deduplicated = ObservedValues<Int>()
        let cancellable = externalPlayerCount.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        let deduplicatedCancellable = externalPlayerCount.removeDuplicates().start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "deduplicated")), recordingIn: deduplicated)
        await values.waitForValues(1)
        let steps = [
            "write:INSERT INTO player (value) VALUES (1)",
            "write:DELETE FROM player WHERE rowid IN (SELECT MIN(rowid) FROM player)",
            "write:INSERT INTO other (value) VALUES (1)", "rollback:INSERT INTO player (value) VALUES (1)",
            "read:SELECT COUNT(*) FROM player",
        ]
        for round in 0..<20 {
            let external = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                steps.randomElement(using: &generator)!
            }
            try await ExternalWriterProcess.run(["exec", path] + external)
            if Bool.random(using: &generator) {
                try await writer.write { db in try db.execute(sql: "INSERT INTO player (value) VALUES (2)") }
            }
            let fresh = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            #expect(await values.wait { $0.last == fresh }, "round \(round): \(external), fresh \(fresh)")
            #expect(await deduplicated.wait { $0.last == fresh }, "round \(round): \(external), fresh \(fresh)")
        }
        let repeated = zip(deduplicated.values, deduplicated.values.dropFirst()).filter { $0 == $1 }
        #expect(repeated.isEmpty, "\(deduplicated.values)")
        cancellable.cancel()
        deduplicatedCancellable.cancel()
    }
}
