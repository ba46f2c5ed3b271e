#if Macros
    /// Writes the record code of a struct: `init(row:)`, `encode(to:)`, an
    /// `enum Columns` with one `Column` per stored property, `databaseTableName`,
    /// and `didInsert(_:)` for an optional integer `id`.
    ///
    /// ```swift
    /// @DatabaseRecord
    /// struct Player: FetchableRecord, MutablePersistableRecord {
    ///     var id: Int64?
    ///     var name: String
    ///     @DatabaseColumn("score_value") var score: Int
    ///     @DatabaseTransient var isSelected = false
    /// }
    /// ```
    ///
    /// The generated code decodes and encodes like the `Decodable` and
    /// `Encodable` implementations of the same struct would: the same
    /// conversions, strategies, errors and SQL. A member that the struct
    /// declares in its body is left alone. The members are written in an
    /// extension, so that the struct keeps its memberwise initializer. Declare
    /// the record protocols on the struct: `init(row:)` is written for a
    /// `FetchableRecord`, `encode(to:)` for a persistable or encodable
    /// record, `didInsert(_:)` for a `MutablePersistableRecord`. The compiler
    /// warns about a record protocol adopted in another extension, where
    /// the macro does not see it.
    @attached(
        extension,
        names: named(init(row:)), named(encode(to:)), named(Columns), named(databaseTableName), named(didInsert(_:)),
        named(_databaseRecordColumnCount), named(_bindDatabaseRecordColumns(to:)),
        named(_encodeDatabaseRecordColumns(to:)), named(_databaseRecordCheckConformances)
    )
    public macro DatabaseRecord() = #externalMacro(module: "StrataMacros", type: "DatabaseRecordMacro")

    /// Stores a property of a `@DatabaseRecord` struct in the column of this
    /// name, rather than in the column named after the property.
    @attached(peer)
    public macro DatabaseColumn(_ name: String) = #externalMacro(module: "StrataMacros", type: "DatabaseColumnMacro")

    /// Keeps a property of a `@DatabaseRecord` struct out of the database: it
    /// is neither read nor written, and takes its default value when a row is
    /// decoded.
    @attached(peer)
    public macro DatabaseTransient() = #externalMacro(module: "StrataMacros", type: "DatabaseTransientMacro")
#endif
