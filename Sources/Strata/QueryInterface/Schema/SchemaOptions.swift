/// Options for ``Database/create(table:options:body:)``.
public struct TableOptions: OptionSet, Sendable {
    /// The bits of the options, one per static member.
    public let rawValue: Int

    /// Creates options from a raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `CREATE TABLE IF NOT EXISTS`: no error when the table exists.
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY TABLE`: the table lives in the temp schema.
    public static let temporary = TableOptions(rawValue: 1 << 1)
    /// `WITHOUT ROWID`: the table has no hidden rowid.
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    /// `STRICT`: SQLite enforces column types (SQLite 3.37+).
    public static let strict = TableOptions(rawValue: 1 << 3)
}

/// Options for the creation of indexes.
public struct IndexOptions: OptionSet, Sendable {
    /// The bits of the options, one per static member.
    public let rawValue: Int

    /// Creates options from a raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `CREATE INDEX IF NOT EXISTS`: no error when the index exists.
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)
    /// `CREATE UNIQUE INDEX`: indexed values must be unique.
    public static let unique = IndexOptions(rawValue: 1 << 1)
}

/// Options for the creation of views.
public struct ViewOptions: OptionSet, Sendable {
    /// The bits of the options, one per static member.
    public let rawValue: Int

    /// Creates options from a raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `CREATE VIEW IF NOT EXISTS`: no error when the view exists.
    public static let ifNotExists = ViewOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY VIEW`: the view lives in the temp schema.
    public static let temporary = ViewOptions(rawValue: 1 << 1)
}

/// Options for the creation of virtual tables.
public struct VirtualTableOptions: OptionSet, Sendable {
    /// The bits of the options, one per static member.
    public let rawValue: Int

    /// Creates options from a raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `CREATE VIRTUAL TABLE IF NOT EXISTS`: no error when the table exists.
    public static let ifNotExists = VirtualTableOptions(rawValue: 1 << 0)
    /// A virtual table in the temp schema (`temp.name`).
    public static let temporary = VirtualTableOptions(rawValue: 1 << 1)
}
