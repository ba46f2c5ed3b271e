/// A virtual table module, such as full-text search modules. It turns a
/// table definition into the arguments of `CREATE VIRTUAL TABLE ... USING
/// module(arguments)`.
public protocol VirtualTableModule {
    /// The type of the definition given to the body of
    /// ``Database/create(virtualTable:options:using:_:)``.
    associatedtype TableDefinition

    /// The module name, such as "fts5".
    var moduleName: String { get }

    /// Returns a new table definition.
    func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

    /// The arguments of the module, from a table definition.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Called after the virtual table was created (to add triggers, for example).
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// How a virtual table is created, given to
/// ``VirtualTableModule/makeTableDefinition(configuration:)``.
public struct VirtualTableConfiguration: Sendable {
    /// Whether the table is created with `IF NOT EXISTS`.
    var ifNotExists: Bool
    /// Whether the table is created in the temp schema.
    var temporary: Bool
}

extension Database {
    /// Creates a virtual table with a module and no argument:
    /// `CREATE VIRTUAL TABLE "name" USING module`.
    public func create(virtualTable name: String, options: VirtualTableOptions = [], using module: String) throws {
        try execute(sql: createVirtualTableSQL(name: name, options: options) + " USING \(module)")
    }

    /// Creates a virtual table (legacy spelling of ``create(virtualTable:options:using:)``).
    @_disfavoredOverload
    public func create(virtualTable name: String, ifNotExists: Bool = false, using module: String) throws {
        try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module)
    }

    /// Creates a virtual table with a module and a definition body:
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS4()) { t in
    ///     t.column("content")
    /// }
    /// ```
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        options: VirtualTableOptions = [],
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        let configuration = VirtualTableConfiguration(
            ifNotExists: options.contains(.ifNotExists), temporary: options.contains(.temporary))
        let definition = module.makeTableDefinition(configuration: configuration)
        try body?(definition)
        let arguments = try module.moduleArguments(for: definition, in: self)
        var sql = createVirtualTableSQL(name: tableName, options: options) + " USING \(module.moduleName)"
        if !arguments.isEmpty {
            sql += "(" + arguments.joined(separator: ", ") + ")"
        }
        try inSavepoint {
            try execute(sql: sql)
            try module.database(self, didCreate: tableName, using: definition)
            return .commit
        }
    }

    /// Creates a virtual table (legacy spelling of ``create(virtualTable:options:using:_:)``).
    @_disfavoredOverload
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        ifNotExists: Bool = false,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module, body)
    }

    private func createVirtualTableSQL(name: String, options: VirtualTableOptions) -> String {
        var sql = "CREATE VIRTUAL TABLE"
        if options.contains(.ifNotExists) { sql += " IF NOT EXISTS" }
        if options.contains(.temporary) {
            sql += " temp." + name.quotedDatabaseIdentifier
        } else {
            sql += " " + name.quotedDatabaseIdentifier
        }
        return sql
    }
}
