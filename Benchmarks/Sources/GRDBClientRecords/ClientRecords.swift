import Foundation
import GRDB

// Records declared in a module of their own, as an app declares them: the
// workloads of StrataWorkloads fetch them across the module boundary
// (issue 46), with the table request of the type (`Item.fetchAll(db)`), as
// apps do. The same types as GRDBRecordWorkloads.swift, made public.
// StrataClientRecords holds the very same code compiled against Strata.

/// A row of `t`, decoded by column name.
public struct ClientNamedItem: FetchableRecord, TableRecord {
    public static let databaseTableName = "t"
    public var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    public init(row: Row) {
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
public struct ClientIndexedItem: FetchableRecord, TableRecord {
    public static let databaseTableName = "t"
    public var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    public init(row: Row) {
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
public struct ClientDecodedItem: Decodable, FetchableRecord, TableRecord {
    public static let databaseTableName = "t"
    public var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// A row of `entry` (`OptionalHeavyFixture`), read by index: most columns
/// are optional, three texts are dates kept as text, and the amount is a
/// decimal read from REAL or INTEGER values.
public struct ClientEntry: FetchableRecord, TableRecord {
    public static let databaseTableName = "entry"
    public var id: Int64
    public var parentId: Int64?
    public var ownerId: Int64?
    public var title: String?
    public var subtitle: String?
    public var author: String?
    public var category: String?
    public var status: String?
    public var note: String?
    public var tag: String?
    public var createdAt: String?
    public var updatedAt: String?
    public var deletedAt: String?
    public var amount: Decimal?

    public init(row: Row) {
        id = row[0]
        parentId = row[1]
        ownerId = row[2]
        title = row[3]
        subtitle = row[4]
        author = row[5]
        category = row[6]
        status = row[7]
        note = row[8]
        tag = row[9]
        createdAt = row[10]
        updatedAt = row[11]
        deletedAt = row[12]
        amount = row[13]
    }
}
