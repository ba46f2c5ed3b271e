#if Macros
    import Strata

    // The record workloads of @DatabaseRecord (issue 30), beside the
    // hand-written and Codable records of StrataRecordWorkloads.swift: the
    // same table, the same SQL, the same values.

    /// A row of `t`, decoded and encoded by the code that `@DatabaseRecord` writes.
    @DatabaseRecord
    struct MacroItem: FetchableRecord, PersistableRecord {
        static let databaseTableName = "t"
        var i0: Int
        var i1: Int
        var i2: Int
        var i3: Int
        var i4: Int
        var i5: Int
        var i6: Int
        var i7: Int
        var i8: Int
        var i9: Int
    }

    extension MacroItem {
        init(_ i: Int) {
            (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (
                i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9
            )
        }
    }

    extension StrataReads {
        /// Records whose `init(row:)` is written by `@DatabaseRecord`.
        public func fetchMacroRecords() throws -> Int {
            try dbQueue.read { db in
                try MacroItem.fetchAll(db, sql: "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t").count
            }
        }
    }

    extension StrataInserts {
        /// Records whose `encode(to:)` is written by `@DatabaseRecord`,
        /// inserted in one transaction.
        public func insertMacroRecords(rowCount: Int) throws {
            try dbQueue.write { db in
                for i in 0..<rowCount {
                    try MacroItem(i).insert(db)
                }
            }
        }
    }
#endif
