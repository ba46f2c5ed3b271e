import Strata
import StrataClientRecords

// The fetches of the cost curves (cost-curves rows, issue 51) that the
// other workloads do not have: every row in an array, and records one at a
// time from a cursor. The same code is compiled against GRDB in
// GRDBWorkloads/GRDBCostCurveWorkloads.swift.

extension StrataReads {
    /// `Row.fetchAll` of table `t`: every row in memory at once.
    public func fetchAllRows() throws -> Int {
        try dbQueue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t")
            return rows.count
        }
    }

    /// Records of another module from a cursor, one at a time.
    public func iterateClientRecords() throws -> Int {
        try dbQueue.read { db in
            var sum = 0
            let records = try ClientIndexedItem.fetchCursor(db)
            while let record = try records.next() {
                sum &+= record.i0
            }
            return sum
        }
    }
}

extension StrataInserts {
    /// The bulk insert of the cost curves: a cached statement whose
    /// arguments are set without validation (`setUncheckedArguments`),
    /// then executed, all in one transaction.
    public func insertUnchecked(rowCount: Int) throws {
        try dbQueue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?)")
            for i in 0..<rowCount {
                statement.setUncheckedArguments([i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9])
                try statement.execute()
            }
        }
    }
}
