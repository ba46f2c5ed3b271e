import StrataSQLite

/// The C baseline of record fetches: a plain struct filled from the columns.
struct CItem {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

extension CItem {
    /// The values Strata and GRDB's record insert workloads use.
    init(_ i: Int) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9)
    }
}

extension CReads {
    /// Records: step through all rows, fill a struct from 10 columns, append
    /// it to an array. The baseline of every record fetch workload.
    public func fetchRecords() throws -> Int {
        let stmt = try connection.prepare("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t")
        defer { sqlite3_finalize(stmt) }
        var items: [CItem] = []
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { try connection.check(code); break }
            items.append(
                CItem(
                    i0: Int(sqlite3_column_int64(stmt, 0)), i1: Int(sqlite3_column_int64(stmt, 1)),
                    i2: Int(sqlite3_column_int64(stmt, 2)), i3: Int(sqlite3_column_int64(stmt, 3)),
                    i4: Int(sqlite3_column_int64(stmt, 4)), i5: Int(sqlite3_column_int64(stmt, 5)),
                    i6: Int(sqlite3_column_int64(stmt, 6)), i7: Int(sqlite3_column_int64(stmt, 7)),
                    i8: Int(sqlite3_column_int64(stmt, 8)), i9: Int(sqlite3_column_int64(stmt, 9))))
        }
        return items.count
    }
}

extension CInserts {
    /// Record inserts: the SQL Strata and GRDB generate for a record of table
    /// `t`, prepared once, each struct's fields bound in one transaction. The
    /// baseline of the `encode(to:)` and `Encodable` insert workloads.
    public func insertRecords(rowCount: Int) throws {
        let stmt = try connection.prepare(
            #"INSERT INTO "t" ("i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9") VALUES (?,?,?,?,?,?,?,?,?,?)"#
        )
        defer { sqlite3_finalize(stmt) }
        try connection.execute("BEGIN")
        for row in 0..<rowCount {
            let item = CItem(row)
            sqlite3_bind_int64(stmt, 1, Int64(item.i0))
            sqlite3_bind_int64(stmt, 2, Int64(item.i1))
            sqlite3_bind_int64(stmt, 3, Int64(item.i2))
            sqlite3_bind_int64(stmt, 4, Int64(item.i3))
            sqlite3_bind_int64(stmt, 5, Int64(item.i4))
            sqlite3_bind_int64(stmt, 6, Int64(item.i5))
            sqlite3_bind_int64(stmt, 7, Int64(item.i6))
            sqlite3_bind_int64(stmt, 8, Int64(item.i7))
            sqlite3_bind_int64(stmt, 9, Int64(item.i8))
            sqlite3_bind_int64(stmt, 10, Int64(item.i9))
            let code = sqlite3_step(stmt)
            guard code == SQLITE_DONE else { try connection.check(code); return }
            sqlite3_reset(stmt)
        }
        try connection.execute("COMMIT")
    }
}
