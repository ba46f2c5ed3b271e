import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 33, the property test: two copies of a database start equal;
/// random inserts, updates and deletes happen on both; they exchange
/// changesets with a fixed conflict policy; both copies then hold the same
/// rows. Bounded: a fixed number of rounds, with a seeded generator.
@Suite("Changeset sync property")
struct ChangesetSyncPropertyTests {
    /// The fixed policy: the changes that arrive win where both replicas
    /// touched a row (data and conflict: replace), and changes to rows that
    /// are gone or clash with a constraint are dropped (omit).
    static func policy(_ conflict: Changeset.Conflict) -> Changeset.ConflictAction {
        switch conflict.kind {
        case .data, .conflict: .replace
        case .notFound, .constraint, .foreignKey: .omit
        }
    }

    /// Runs a few random writes on a replica, and returns their changeset.
    static func randomWrites(
        _ replica: DatabaseQueue, using generator: inout SeededGenerator
    ) throws -> Changeset {
        var statements: [(String, StatementArguments)] = []
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
            let id = Int.random(in: 1...12, using: &generator)
            let value = Int.random(in: 0...99, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                statements.append(
                    ("INSERT OR REPLACE INTO item (id, value, label) VALUES (?, ?, ?)", [id, value, "v\(value)"]))
            case 1: statements.append(("UPDATE item SET value = ? WHERE id = ?", [value, id]))
            default: statements.append(("DELETE FROM item WHERE id = ?", [id]))
            }
        }
        return try replica.write { db in
            try db.recordChanges {
                for (sql, arguments) in statements {
                    try db.execute(sql: sql, arguments: arguments)
                }
            }
        }
    }

    static func dump(_ replica: DatabaseQueue) throws -> String {
        try TextCollector.collect { try replica.dumpTables(["item"], stableOrder: true, to: $0) }
    }

    @Test(
        "Two replicas that exchange random changesets with a fixed policy end with the same rows",
        arguments: [1, 2, 3] as [UInt64])
    func replicasConverge(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let schema = "CREATE TABLE item (id INTEGER PRIMARY KEY, value INT, label TEXT)"
        let replicaA = try inMemoryDatabase(schema)
        let replicaB = try inMemoryDatabase(schema)
        var conflictCount = 0
        for round in 0..<40 {
            let fromA = try Self.randomWrites(replicaA, using: &generator)
            let fromB = try Self.randomWrites(replicaB, using: &generator)
            // B applies A's changes, then rebases its own on how it resolved
            // the conflicts, and sends them to A, which applies them with the
            // same policy.
            let rebase = try replicaB.write { db in
                try db.applyReturningRebase(fromA) { conflict in
                    conflictCount += 1
                    return Self.policy(conflict)
                }
            }
            let rebased = try fromB.rebased(onto: rebase)
            try replicaA.write { db in try db.apply(rebased, onConflict: Self.policy) }
            let (dumpA, dumpB) = try (Self.dump(replicaA), Self.dump(replicaB))
            #expect(dumpA == dumpB, "round \(round) of seed \(seed)")
            if dumpA != dumpB { return }
        }
        // The rounds did exercise conflicts.
        #expect(conflictCount > 0)
    }
}
