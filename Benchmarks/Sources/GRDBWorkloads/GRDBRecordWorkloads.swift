import Foundation
import GRDB

// Record workloads (issue 6): the same code as StrataWorkloads, compiled
// against GRDB 7.

/// A row of `t`, decoded by column name.
struct NamedItem: FetchableRecord {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    init(row: Row) {
        i0 = row["i0"]
        i1 = row["i1"]
        i2 = row["i2"]
        i3 = row["i3"]
        i4 = row["i4"]
        i5 = row["i5"]
        i6 = row["i6"]
        i7 = row["i7"]
        i8 = row["i8"]
        i9 = row["i9"]
    }
}

/// A row of `t`, decoded by column index.
struct IndexedItem: FetchableRecord {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    init(row: Row) {
        i0 = row[0]
        i1 = row[1]
        i2 = row[2]
        i3 = row[3]
        i4 = row[4]
        i5 = row[5]
        i6 = row[6]
        i7 = row[7]
        i8 = row[8]
        i9 = row[9]
    }
}

/// A row of `t`, decoded by `Decodable`.
struct DecodedItem: Decodable, FetchableRecord {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// A row of `t`, encoded by hand.
struct EncodedItem: PersistableRecord {
    static let databaseTableName = "t"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    init(_ i: Int) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9)
    }
    func encode(to container: inout PersistenceContainer) {
        container["i0"] = i0
        container["i1"] = i1
        container["i2"] = i2
        container["i3"] = i3
        container["i4"] = i4
        container["i5"] = i5
        container["i6"] = i6
        container["i7"] = i7
        container["i8"] = i8
        container["i9"] = i9
    }
}

/// A row of `t`, encoded by `Encodable`.
struct EncodableItem: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    init(_ i: Int) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9)
    }
}

extension GRDBReads {
    /// Records with a hand-written `init(row:)` reading columns by name.
    public func fetchRecordsByName() throws -> Int {
        try dbQueue.read { db in
            try NamedItem.fetchAll(db, sql: "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t").count
        }
    }

    /// Records with a hand-written `init(row:)` reading columns by index.
    public func fetchRecordsByIndex() throws -> Int {
        try dbQueue.read { db in
            try IndexedItem.fetchAll(db, sql: "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t").count
        }
    }

    /// Decodable records.
    public func fetchDecodableRecords() throws -> Int {
        try dbQueue.read { db in
            try DecodedItem.fetchAll(db, sql: "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t").count
        }
    }
}

extension GRDBInserts {
    /// Records with a hand-written `encode(to:)`, inserted in one transaction.
    public func insertRecords(rowCount: Int) throws {
        try dbQueue.write { db in
            for i in 0..<rowCount {
                try EncodedItem(i).insert(db)
            }
        }
    }

    /// Encodable records, inserted in one transaction.
    public func insertEncodableRecords(rowCount: Int) throws {
        try dbQueue.write { db in
            for i in 0..<rowCount {
                try EncodableItem(i).insert(db)
            }
        }
    }
}
