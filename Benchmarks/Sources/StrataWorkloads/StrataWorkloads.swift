import Foundation
import Strata

// Workloads written against Strata. GRDBWorkloads holds the very same code
// compiled against GRDB 7 (the APIs are meant to match).

public final class StrataReads: @unchecked Sendable {
    let dbQueue: DatabaseQueue

    /// - parameter statementStatistics: Whether Strata's statement
    ///   statistics are on (the `-statistics` workloads, which measure
    ///   their cost); off for the workloads that compare with C and GRDB.
    /// - parameter queryPlanMonitor: Whether Strata's query plan monitor
    ///   is on (the `-monitor` workloads).
    public init(setupSQL: [String], statementStatistics: Bool = false, queryPlanMonitor: Bool = false) throws {
        var configuration = Configuration()
        if statementStatistics { configuration.statementStatistics = StatementStatisticsCollector() }
        if queryPlanMonitor { configuration.queryPlanMonitor = QueryPlanMonitor { _ in } }
        dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            for sql in setupSQL { try db.execute(sql: sql) }
        }
    }

    /// Workload 1: row cursor, 10 columns read by index.
    public func iterateRowsByIndex() throws -> Int {
        try dbQueue.read { db in
            var sum = 0
            let rows = try Row.fetchCursor(db, sql: "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t")
            while let row = try rows.next() {
                sum &+= row[0] as Int
                sum &+= row[1] as Int
                sum &+= row[2] as Int
                sum &+= row[3] as Int
                sum &+= row[4] as Int
                sum &+= row[5] as Int
                sum &+= row[6] as Int
                sum &+= row[7] as Int
                sum &+= row[8] as Int
                sum &+= row[9] as Int
            }
            return sum
        }
    }

    /// Workload 2: row cursor, 10 columns read by name.
    public func iterateRowsByName() throws -> Int {
        try dbQueue.read { db in
            var sum = 0
            let rows = try Row.fetchCursor(db, sql: "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t")
            while let row = try rows.next() {
                sum &+= row["i0"] as Int
                sum &+= row["i1"] as Int
                sum &+= row["i2"] as Int
                sum &+= row["i3"] as Int
                sum &+= row["i4"] as Int
                sum &+= row["i5"] as Int
                sum &+= row["i6"] as Int
                sum &+= row["i7"] as Int
                sum &+= row["i8"] as Int
                sum &+= row["i9"] as Int
            }
            return sum
        }
    }

    /// Workload 3: Int.fetchAll.
    public func fetchAllInts() throws -> [Int] {
        try dbQueue.read { db in
            try Int.fetchAll(db, sql: "SELECT i0 FROM t")
        }
    }

    /// Issue 5 workload: a query interface request, built and fetched 200 times.
    public func queryInterfaceRequests() throws -> Int {
        try dbQueue.read { db in
            var count = 0
            for _ in 0..<200 {
                let rows = try Table("player")
                    .filter(Column("score") > 500)
                    .order(Column("name"))
                    .limit(10)
                    .fetchAll(db)
                count += rows.count
            }
            return count
        }
    }

    /// Workload 4: Date.fetchAll from "YYYY-MM-DD HH:MM:SS.SSS" text.
    public func fetchAllDates() throws -> [Date] {
        try dbQueue.read { db in
            try Date.fetchAll(db, sql: "SELECT d FROM dates")
        }
    }
}

public final class StrataInserts: @unchecked Sendable {
    let dbQueue: DatabaseQueue
    let recordsChanges: Bool

    /// - parameter statementStatistics: Whether Strata's statement
    ///   statistics are on (the `-statistics` workloads, which measure
    ///   their cost); off for the workloads that compare with C and GRDB.
    /// - parameter queryPlanMonitor: Whether Strata's query plan monitor
    ///   is on (the `-monitor` workloads).
    /// - parameter recordsChanges: Whether `insertPositional` records the
    ///   changeset of its inserts into table `t` (the `-recording`
    ///   workloads, issue 33: the cost of the session extension).
    public init(
        setupSQL: [String], statementStatistics: Bool = false, queryPlanMonitor: Bool = false,
        recordsChanges: Bool = false
    ) throws {
        self.recordsChanges = recordsChanges
        var configuration = Configuration()
        if statementStatistics { configuration.statementStatistics = StatementStatisticsCollector() }
        if queryPlanMonitor { configuration.queryPlanMonitor = QueryPlanMonitor { _ in } }
        dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            for sql in setupSQL { try db.execute(sql: sql) }
        }
    }

    /// Empties the table (called outside of the measured region).
    public func reset() throws {
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM t") }
    }

    /// Workload 5: cached statement, positional arguments, one transaction.
    public func insertPositional(rowCount: Int) throws {
        if recordsChanges {
            try insertPositionalRecordingChanges(rowCount: rowCount)
            return
        }
        try dbQueue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?)")
            for i in 0..<rowCount {
                try statement.execute(arguments: [i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9])
            }
        }
    }

    /// Workload 5 inside `recordChanges(to: ["t"])`, whose changeset is
    /// built before the transaction commits.
    private func insertPositionalRecordingChanges(rowCount: Int) throws {
        let changeset = try dbQueue.write { db in
            try db.recordChanges(to: ["t"]) {
                let statement = try db.cachedStatement(sql: "INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?)")
                for i in 0..<rowCount {
                    try statement.execute(arguments: [
                        i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9,
                    ])
                }
            }
        }
        precondition(!changeset.isEmpty)
    }

    /// Workload 6: cached statement, named (dictionary) arguments, one transaction.
    public func insertNamed(rowCount: Int) throws {
        try dbQueue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO t VALUES (:a,:b,:c,:d,:e,:f,:g,:h,:i,:j)")
            for i in 0..<rowCount {
                try statement.execute(arguments: [
                    "a": i, "b": i + 1, "c": i + 2, "d": i + 3, "e": i + 4,
                    "f": i + 5, "g": i + 6, "h": i + 7, "i": i + 8, "j": i + 9,
                ])
            }
        }
    }

    public func count() throws -> Int {
        try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
    }
}
