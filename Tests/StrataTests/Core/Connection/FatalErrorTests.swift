import Foundation
import Strata
import StrataTestSupport
import Testing

/// Programmer errors that the documents call fatal stop the program.
struct FatalErrorTests {
    @Test func reentrantAccessIsFatal() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { _ in
                try dbQueue.read { _ in }
            }
        }
    }

    @Test func transactionLeftOpenIsFatal() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.writeWithoutTransaction { db in
                try db.beginTransaction()
            }
        }
    }

    @Test func transactionLeftOpenIsAllowedWhenConfigured() throws {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        try dbQueue.writeWithoutTransaction { db in
            #expect(db.isInsideTransaction)
            try db.commit()
        }
    }

    @Test func nullInNonOptionalSubscriptIsFatal() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT NULL AS name")!
                let name: String = row["name"]
                print(name)
            }
        }
    }

    @Test func missingColumnInNonOptionalSubscriptIsFatal() async {
        await #expect(processExitsWith: .failure) {
            let row: Row = ["a": 1]
            let value: Int = row["missing"]
            print(value)
        }
    }
}
