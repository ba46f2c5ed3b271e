import StrataSQLite

/// The C baseline of record fetches: a plain struct filled from the columns.
struct CItem {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
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
