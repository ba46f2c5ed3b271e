import GRDB

// Rows seen through a scope adapter, as association decoding reads them
// (`including(required:)`): each row of the cursor is adapted, and each of
// its scopes is another adapted row. The same code is compiled against
// Strata in StrataWorkloads/StrataScopedRowWorkloads.swift.

extension GRDBReads {
    /// Table `t` through a `ScopeAdapter` of two scopes of five columns
    /// each; every row's two scoped rows read by index.
    public func iterateScopedRows() throws -> Int {
        try dbQueue.read { db in
            let adapter = ScopeAdapter(["first": RangeRowAdapter(0..<5), "second": RangeRowAdapter(5..<10)])
            var sum = 0
            let rows = try Row.fetchCursor(
                db, sql: "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t", adapter: adapter)
            while let row = try rows.next() {
                guard let first = row.scopes["first"], let second = row.scopes["second"] else { return -1 }
                for index in 0..<5 {
                    sum &+= first[index] as Int
                    sum &+= second[index] as Int
                }
            }
            return sum
        }
    }
}
