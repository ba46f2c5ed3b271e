import Foundation
import Strata
import StrataTestSupport
import Testing

/// The samples of the Concurrency, Swift Concurrency and DatabaseSharing
/// articles, with SQL in place of record types.
struct ConcurrencyArticleTests {
    /// Makes a pool with the `credit` and `debit` tables of the articles.
    private func makeBankPool(_ directory: TemporaryDirectory, configuration: Configuration = Configuration()) throws
        -> DatabasePool
    {
        let dbPool = try DatabasePool(path: directory.path("bank.sqlite"), configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE credit (account INT, amount INT)")
            try db.execute(sql: "CREATE TABLE debit (account INT, amount INT)")
        }
        return dbPool
    }

    @Test func accessesRunInTransactions() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeBankPool(directory)
        try dbPool.write { db in
            #expect(db.isInsideTransaction)
        }
        try dbPool.read { db in
            #expect(db.isInsideTransaction)
        }
        dbPool.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
        }
        try dbPool.unsafeRead { db in
            #expect(!db.isInsideTransaction)
        }
    }

    @Test func oneAsynchronousAccessPerformsSynchronousOperations() async throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeBankPool(directory)
        let writer: any DatabaseWriter = dbPool
        let newCreditCount = try await writer.write { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1, 10)")
            try db.execute(sql: "INSERT INTO credit VALUES (2, 20)")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit")!
        }
        let creditCount = try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit")!
        }
        #expect(newCreditCount == 2)
        #expect(creditCount == 2)
    }

    @Test func shorthandNotation() async throws {
        let directory = try TemporaryDirectory()
        let writer: any DatabaseWriter = try makeBankPool(directory)
        @Sendable func fetchCreditCount(_ db: Database) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit")!
        }
        let count = try await writer.read(fetchCreditCount)
        #expect(count == 0)
    }

    /// The sums of the credits and of the debits.
    private func fetchBalances(_ db: Database) throws -> (credits: Int, debits: Int) {
        let credits = try Int.fetchOne(db, sql: "SELECT SUM(amount) FROM credit")!
        let debits = try Int.fetchOne(db, sql: "SELECT SUM(amount) FROM debit")!
        return (credits, debits)
    }

    @Test func transfersAreBalanced() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeBankPool(directory)
        // BEGIN TRANSACTION, INSERT INTO credit, INSERT INTO debit, COMMIT
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1, 100)")
            try db.execute(sql: "INSERT INTO debit VALUES (2, 100)")
        }
        let (credits, debits) = try dbPool.read(fetchBalances)
        #expect(credits == debits)
        // Without transactions: allowed, but unsafe.
        try dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1, 50)")
            try db.execute(sql: "INSERT INTO debit VALUES (2, 50)")
        }
        let (unsafeCredits, unsafeDebits) = try dbPool.unsafeRead(fetchBalances)
        #expect(unsafeCredits == 150)
        #expect(unsafeDebits == 150)
    }

    @Test func unsafeIntegrityWithoutTransaction() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeBankPool(directory)
        // The second insert fails after the first one was written to disk.
        #expect(throws: DatabaseError.self) {
            try dbPool.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO credit VALUES (1, 100)")
                try db.execute(sql: "INSERT INTO missing VALUES (2, 100)")
            }
        }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit") } == 1)
    }

    @Test func sharingSetupWithBusyTimeout() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = -2000")
        }
        let dbPool = try makeBankPool(directory, configuration: configuration)
        do {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO credit VALUES (1, 1)") }
        } catch DatabaseError.SQLITE_BUSY {
            Issue.record("Nobody else holds the database")
        }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit") } == 1)
    }

    @Test func busyErrorFromAnotherConnection() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeBankPool(directory)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        // A second connection on the same file plays the other process.
        let other = try DatabaseQueue(path: directory.path("bank.sqlite"), configuration: configuration)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        var caught = false
        do {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO credit VALUES (1, 1)") }
        } catch DatabaseError.SQLITE_BUSY {
            caught = true
        }
        #expect(caught)
        // Reads are not blocked by the other writer, in WAL mode.
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit") } == 0)
        try other.writeWithoutTransaction { db in try db.rollback() }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO credit VALUES (1, 1)") }
    }

    @Test func readsSeeOtherConnectionsCommits() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try makeBankPool(directory)
        let other = try DatabaseQueue(path: directory.path("bank.sqlite"))
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit") } == 0)
        try other.write { db in try db.execute(sql: "INSERT INTO credit VALUES (1, 1)") }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit") } == 1)
    }
}
