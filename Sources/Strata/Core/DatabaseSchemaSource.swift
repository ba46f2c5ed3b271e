/// A source of schema information that SQLite doesn't give, such as the
/// primary keys of views. Set it with ``Configuration/schemaSource``.
public protocol DatabaseSchemaSource: Sendable {
    /// The primary key columns of a view, or nil when it has none.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

/// Identifies a schema: main, temp, or an attached database.
public struct DatabaseSchemaID: Hashable, Sendable {
    enum Impl: Hashable, Sendable {
        case main
        case temp
        case attached(String)
    }

    let impl: Impl

    /// The main schema.
    public static let main = DatabaseSchemaID(impl: .main)
    /// The temp schema.
    public static let temp = DatabaseSchemaID(impl: .temp)

    /// An attached schema.
    public static func attached(_ name: String) -> DatabaseSchemaID {
        DatabaseSchemaID(impl: .attached(name))
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
