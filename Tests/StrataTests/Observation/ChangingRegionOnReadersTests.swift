import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

/// The value of an observation that counts the rows of the table that
/// `flag` names, and where it was fetched.
private struct FlaggedCount: Sendable, Equatable {
    var table: String
    var count: Int
    var connection: String

    var isOnReader: Bool { connection.contains(".reader.") }
    var isOnWriter: Bool { connection.hasSuffix(".writer") }
}

/// A pool with the tables `flag` (one row: the name of the counted table),
/// `a` and `b`, and an observation whose region changes with the flag.
private struct FlagFixture {
    let directory: TemporaryDirectory
    let dbPool: DatabasePool
    let gate = HeldFetches()

    init() throws {
        directory = try TemporaryDirectory()
        dbPool = try makePool(directory, maximumReaderCount: 5)
        try dbPool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE flag (name TEXT NOT NULL);
                    INSERT INTO flag VALUES ('a');
                    CREATE TABLE a (x);
                    CREATE TABLE b (x);
                    """)
        }
    }

    /// Reads the flag, then counts the table it names: the region is
    /// `flag` and `a`, or `flag` and `b`. Fetches wait at the gate when it
    /// is closed.
    var observation: ValueObservation<ValueReducers.Fetch<FlaggedCount>> {
        let gate = self.gate
        return ValueObservation.tracking { db in
            let table = try String.fetchOne(db, sql: "SELECT name FROM flag")!
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!
            gate.pass(count)
            return FlaggedCount(table: table, count: count, connection: db.description)
        }
    }

    /// Starts the observation, and waits for its first value.
    func start() async -> (AnyDatabaseCancellable, ObservedValues<FlaggedCount>) {
        let values = ObservedValues<FlaggedCount>()
        let cancellable = observation.start(
            in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        await values.waitForValues(1)
        return (cancellable, values)
    }

    func execute(_ sql: String) throws {
        try dbPool.write { db in try db.execute(sql: sql) }
    }
}

/// `ValueObservation.tracking(_:)` on a pool: once two fetches in a row read
/// the same region, the next fetches run on readers; a fetch on a reader
/// that reads another region hands over to the writer, so that no commit is
/// missed.
@Suite("Observations whose region may change fetch on a pool's readers once it is stable")
struct ChangingRegionOnReadersTests {
    @Test("The first two fetches run on the writer, the next ones on readers while the region stays the same")
    func stableRegionMovesToReaders() async throws {
        let fixture = try FlagFixture()
        let (cancellable, values) = await fixture.start()
        defer { cancellable.cancel() }
        try fixture.execute("INSERT INTO a VALUES (1)")
        await values.waitForValues(2)
        try fixture.execute("INSERT INTO a VALUES (2)")
        await values.waitForValues(3)
        try fixture.execute("INSERT INTO a VALUES (3)")
        await values.waitForValues(4)
        let fetched = values.values
        #expect(fetched.map(\.count) == [0, 1, 2, 3])
        #expect(fetched[0].isOnWriter && fetched[1].isOnWriter, "\(fetched.map(\.connection))")
        #expect(fetched[2].isOnReader && fetched[3].isOnReader, "\(fetched.map(\.connection))")
    }

    @Test("A commit made after a reader's snapshot to a table that only the new region holds is not missed")
    func commitAfterTheSnapshotOfANewRegionIsSeen() async throws {
        let fixture = try FlagFixture()
        let (cancellable, values) = await fixture.start()
        defer {
            fixture.gate.open()
            cancellable.cancel()
        }
        try fixture.execute("INSERT INTO a VALUES (1)")
        await values.waitForValues(2)
        // The region {flag, a} is stable: the next fetch runs on a reader.
        // It reads the new flag, and waits at the gate, inside its snapshot.
        fixture.gate.close()
        try fixture.execute("UPDATE flag SET name = 'b'")
        await fixture.gate.held.waitForValues(1)
        // A commit to `b`, which the observed region {flag, a} does not
        // hold: the broker does not report it to the observation.
        try fixture.execute("INSERT INTO b VALUES (1)")
        fixture.gate.open()
        // The reader's value (0 rows in `b`, from its snapshot) is stale:
        // the writer fetches again, and sees the row.
        #expect(await values.wait { $0.last?.table == "b" && $0.last?.count == 1 })
        let last = try #require(values.values.last)
        #expect(last.isOnWriter, "\(last.connection)")
        #expect(!values.values.contains { $0.table == "b" && $0.count == 0 }, "\(values.values)")
        // The new region is tracked: a change to `b` is seen, and, once
        // stable again, fetched on a reader.
        try fixture.execute("INSERT INTO b VALUES (2)")
        #expect(await values.wait { $0.last?.count == 2 })
        try fixture.execute("INSERT INTO b VALUES (3)")
        #expect(await values.wait { $0.last?.count == 3 })
        let final = try #require(values.values.last)
        #expect(final.isOnReader, "\(final.connection)")
    }

    @Test("Fetches on readers and on the writer deliver the values in the order of the commits")
    func valuesStayInOrderAcrossRegionChanges() async throws {
        let fixture = try FlagFixture()
        let (cancellable, values) = await fixture.start()
        defer { cancellable.cancel() }
        // Rows and flag flips interleaved: the region changes again and again.
        for round in 1...30 {
            try fixture.execute("INSERT INTO a VALUES (\(round)); INSERT INTO b VALUES (\(round))")
            if round.isMultiple(of: 3) {
                try fixture.execute("UPDATE flag SET name = CASE name WHEN 'a' THEN 'b' ELSE 'a' END")
            }
        }
        let fresh = try await fixture.dbPool.read { db -> (String, Int) in
            let table = try String.fetchOne(db, sql: "SELECT name FROM flag")!
            return (table, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!)
        }
        #expect(await values.wait { $0.last?.table == fresh.0 && $0.last?.count == fresh.1 })
        // Counts of each table never go backwards.
        for table in ["a", "b"] {
            let counts = values.values.filter { $0.table == table }.map(\.count)
            #expect(counts == counts.sorted(), "\(table): \(counts)")
        }
    }
}
