/// A source of schema information that SQLite doesn't give, such as the
/// primary keys of views. Set it with ``Configuration/schemaSource``.
///
/// ```swift
/// struct MySchemaSource: DatabaseSchemaSource {
///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "captain" ? ["id"] : nil
///     }
/// }
/// ```
public protocol DatabaseSchemaSource: Sendable {
    /// The primary key columns of a view, or nil when it has none.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    /// Returns nil: by default, a schema source knows no primary key of views.
    /// Implement it to tell the primary keys of the views you need.
    public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        nil
    }

    /// A schema source that asks this source first, and `other` when this
    /// one returns nil.
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedSchemaSource(first: self, second: other)
    }
}

/// The schema source of ``DatabaseSchemaSource/then(_:)``.
struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        if let columns = try first.columnsForPrimaryKey(db, inView: view) {
            return columns
        }
        return try second.columnsForPrimaryKey(db, inView: view)
    }
}

/// Identifies a schema: main, temp, or an attached database.
public struct DatabaseSchemaID: Hashable, Sendable {
    private enum Kind: Hashable, Sendable {
        case main
        case temp
        case attached(String)
    }

    private let kind: Kind

    /// The schema of the database file the connection opened (SQL name `main`).
    public static let main = Self(kind: .main)

    /// The schema of the connection's temporary tables, views and triggers (SQL name `temp`).
    public static let temp = Self(kind: .temp)

    /// The schema of the database attached under this name.
    public static func attached(_ name: String) -> Self {
        Self(kind: .attached(name))
    }

    /// The schema name: "main", "temp", or the name of the attached database.
    public var name: String {
        switch kind {
        case .main: "main"
        case .temp: "temp"
        case .attached(let alias): alias
        }
    }

    /// The table that lists the schema objects, ready for SQL: `sqlite_master`,
    /// `sqlite_temp_master`, or `"name".sqlite_master`.
    public var schemaTableName: String {
        if case .temp = kind { return "sqlite_temp_master" }
        if case .attached(let alias) = kind { return alias.quotedDatabaseIdentifier + ".sqlite_master" }
        return "sqlite_master"
    }
}

extension DatabaseSchemaID {
    /// The schema of a name of `PRAGMA database_list`.
    init(name: String) {
        switch name.lowercased() {
        case "main": self = .main
        case "temp": self = .temp
        default: self = .attached(name)
        }
    }
}

/// Identifies a table or view in a schema.
public struct DatabaseObjectID: Hashable, Sendable {
    /// The name of the table or view.
    public var name: String
    /// The schema of the table or view.
    public var schemaID: DatabaseSchemaID

    /// Creates an identifier.
    public init(name: String, schemaID: DatabaseSchemaID) {
        self.name = name
        self.schemaID = schemaID
    }
}
