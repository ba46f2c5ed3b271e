// Schema introspection and foreign key checks.
//
// Everything is cached per connection in `schemaCache`, until
// `clearSchemaCache()` (called after each statement that changes the schema),
// or the rollback of a transaction that changed the schema.

extension Database {
    // MARK: - Reserved tables

    /// True for the tables that SQLite reserves: names that start with `sqlite_`.
    public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
        tableName.lowercased().hasPrefix("sqlite_")
    }

    /// True for the tables that Strata reserves, such as the `grdb_migrations`
    /// table of ``DatabaseMigrator``: names that start with `grdb_`.
    public static func isGRDBInternalTable(_ tableName: String) -> Bool {
        tableName.lowercased().hasPrefix("grdb_")
    }

    // MARK: - Existence checks

    /// Whether a table exists. With a nil `schemaName`, looks in all schemas
    /// (temp, main, then attached databases).
    ///
    /// ```swift
    /// if try db.tableExists("player") { ... }
    /// if try db.tableExists("player", in: "main") { ... }
    /// ```
    public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        let lowercased = name.lowercased()
        if lowercased == "sqlite_master" || lowercased == "sqlite_schema" {
            if let schemaName { _ = try schemaID(named: schemaName) }
            return true
        }
        return try firstSchemaID(containing: name, types: ["table"], in: schemaName) != nil
    }

    /// Whether a view exists. With a nil `schemaName`, looks in all schemas.
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try firstSchemaID(containing: name, types: ["view"], in: schemaName) != nil
    }

    /// Whether a trigger exists. With a nil `schemaName`, looks in all schemas.
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try firstSchemaID(containing: name, types: ["trigger"], in: schemaName) != nil
    }

    // MARK: - Table structure

    /// The columns of a table or view, in table order. Throws a
    /// ``DatabaseError`` for an unknown table.
    ///
    /// The hidden columns of virtual tables are not included; generated
    /// columns are.
    public func columns(in tableName: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        let object = try requireObject(tableName, in: schemaName)
        let key = SchemaCache.ObjectKey(schemaID: object.schemaID, lowercasedName: object.name.lowercased())
        if let columns = schemaCache.columns[key] {
            return columns
        }
        let sql =
            "PRAGMA \(object.schemaID.name.quotedDatabaseIdentifier).table_xinfo("
            + "\(object.name.quotedDatabaseIdentifier))"
        let columns = try ColumnInfo.fetchAll(self, sql: sql)
            .filter { $0.hidden != 1 }
            .sorted { $0.cid < $1.cid }
        guard !columns.isEmpty else {
            throw DatabaseError(message: "no such table: \(tableName)")
        }
        schemaCache.columns[key] = columns
        return columns
    }

    /// The primary key of a table: the hidden `rowid` for a table without an
    /// explicit primary key.
    ///
    /// Views get their primary key from ``schemaSource``: without one, or when
    /// the source returns nil, this method throws. Unknown tables throw too.
    ///
    /// ```swift
    /// let primaryKey = try db.primaryKey("player")
    /// primaryKey.columns // ["id"]
    /// ```
    public func primaryKey(_ tableName: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        let object = try requireObject(tableName, in: schemaName)
        if try isView(object) {
            if let schemaSource, let columns = try schemaSource.columnsForPrimaryKey(self, inView: object) {
                return .regular(columns)
            }
            throw DatabaseError(message: "database view \(object.name) has no primary key")
        }
        let key = SchemaCache.ObjectKey(schemaID: object.schemaID, lowercasedName: object.name.lowercased())
        if let primaryKey = schemaCache.primaryKeys[key] {
            return primaryKey
        }
        let keyColumns = try columns(in: object.name, in: object.schemaID.name)
            .filter { $0.primaryKeyIndex > 0 }
            .sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        let primaryKey: PrimaryKeyInfo
        if keyColumns.isEmpty {
            primaryKey = .hiddenRowID
        } else if keyColumns.count == 1, keyColumns[0].type.uppercased() == "INTEGER",
            try !indexes(on: object.name, in: object.schemaID.name).contains(where: {
                $0.origin == .primaryKeyConstraint
            })
        {
            // INTEGER PRIMARY KEY in a rowid table: an alias for the rowid.
            // (WITHOUT ROWID tables, and DESC keys, have a primary key index.)
            primaryKey = .rowID(keyColumns[0].name)
        } else {
            primaryKey = .regular(keyColumns.map(\.name))
        }
        schemaCache.primaryKeys[key] = primaryKey
        return primaryKey
    }

    /// The foreign keys of a table. Throws a ``DatabaseError`` for an unknown table.
    public func foreignKeys(on tableName: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        let object = try requireObject(tableName, in: schemaName)
        let key = SchemaCache.ObjectKey(schemaID: object.schemaID, lowercasedName: object.name.lowercased())
        if let foreignKeys = schemaCache.foreignKeys[key] {
            return foreignKeys
        }
        let sql =
            "PRAGMA \(object.schemaID.name.quotedDatabaseIdentifier).foreign_key_list("
            + "\(object.name.quotedDatabaseIdentifier))"
        var rowsByID: [Int: [Row]] = [:]
        for row in try Row.fetchAll(self, sql: sql) {
            rowsByID[row["id"] ?? 0, default: []].append(row)
        }
        var foreignKeys: [ForeignKeyInfo] = []
        for (id, rows) in rowsByID.sorted(by: { $0.key < $1.key }) {
            let rows = rows.sorted { ($0["seq"] as Int? ?? 0) < ($1["seq"] as Int? ?? 0) }
            let destinationTable: String = rows[0]["table"] ?? ""
            var destinationColumns: [String?] = rows.map { $0["to"] }
            if destinationColumns.contains(where: { $0 == nil }) {
                // REFERENCES table: the referenced primary key.
                let primaryKeyColumns =
                    (try? primaryKey(destinationTable, in: object.schemaID.name).columns)
                    ?? (try? primaryKey(destinationTable).columns) ?? []
                destinationColumns = destinationColumns.indices.map {
                    $0 < primaryKeyColumns.count ? primaryKeyColumns[$0] : destinationColumns[$0]
                }
            }
            let mapping = zip(rows, destinationColumns).map { row, destination in
                (origin: row["from"] as String? ?? "", destination: destination ?? "")
            }
            foreignKeys.append(ForeignKeyInfo(id: id, destinationTable: destinationTable, mapping: mapping))
        }
        schemaCache.foreignKeys[key] = foreignKeys
        return foreignKeys
    }

    /// The indexes of a table, including those created by PRIMARY KEY and
    /// UNIQUE constraints. Indexes on expressions are not included. Throws a
    /// ``DatabaseError`` for an unknown table.
    public func indexes(on tableName: String, in schemaName: String? = nil) throws -> [IndexInfo] {
        let object = try requireObject(tableName, in: schemaName)
        let key = SchemaCache.ObjectKey(schemaID: object.schemaID, lowercasedName: object.name.lowercased())
        if let indexes = schemaCache.indexes[key] {
            return indexes
        }
        let schema = object.schemaID.name.quotedDatabaseIdentifier
        let listSQL = "PRAGMA \(schema).index_list(\(object.name.quotedDatabaseIdentifier))"
        var indexes: [IndexInfo] = []
        for row in try Row.fetchAll(self, sql: listSQL) {
            let name: String = row["name"] ?? ""
            let infoSQL = "PRAGMA \(schema).index_info(\(name.quotedDatabaseIdentifier))"
            let columnRows = try Row.fetchAll(self, sql: infoSQL)
                .sorted { ($0["seqno"] as Int? ?? 0) < ($1["seqno"] as Int? ?? 0) }
            let columns = columnRows.map { $0["name"] as String? }
            guard !columns.contains(where: { $0 == nil }) else { continue }
            indexes.append(
                IndexInfo(
                    name: name,
                    columns: columns.compactMap { $0 },
                    isUnique: row["unique"] ?? false,
                    origin: IndexInfo.Origin(rawValue: row["origin"] ?? "c")))
        }
        schemaCache.indexes[key] = indexes
        return indexes
    }

    /// Whether the columns are the columns of the primary key, or of a unique
    /// index, of the table (case-insensitive, in any order).
    public func table(_ tableName: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        let wanted = Set(columns.map { $0.lowercased() })
        func isCovered(_ key: [String]) -> Bool {
            !key.isEmpty && Set(key.map { $0.lowercased() }).isSubset(of: wanted)
        }
        let object = try requireObject(tableName, in: nil)
        let isView = try isView(object)
        let primaryKey: PrimaryKeyInfo
        do {
            primaryKey = try self.primaryKey(tableName)
        } catch  where isView {
            // A view has a primary key only through the schema source.
            return false
        }
        if isCovered(primaryKey.columns) { return true }
        if isView { return false }
        if !wanted.isDisjoint(with: ["rowid", "_rowid_", "oid"]) && hasRowID(object) {
            return true
        }
        return try indexes(on: tableName).contains { index in
            index.isUnique && isCovered(index.columns)
        }
    }

    /// Whether a table has a rowid (it is not a WITHOUT ROWID table).
    private func hasRowID(_ table: DatabaseObjectID) -> Bool {
        let name = table.schemaID.name.quotedDatabaseIdentifier + "." + table.name.quotedDatabaseIdentifier
        return (try? makeStatement(sql: "SELECT rowid FROM \(name)")) != nil
    }

    // MARK: - Foreign key checks

    /// A cursor of all foreign key violations (`PRAGMA foreign_key_check`).
    public func foreignKeyViolations() throws -> RecordCursor<ForeignKeyViolation> {
        try ForeignKeyViolation.fetchCursor(self, sql: "PRAGMA foreign_key_check")
    }

    /// A cursor of the foreign key violations of a table. Throws a
    /// ``DatabaseError`` for an unknown table.
    public func foreignKeyViolations(
        in tableName: String,
        in schemaName: String? = nil
    ) throws -> RecordCursor<ForeignKeyViolation> {
        let object = try requireObject(tableName, in: schemaName)
        let sql =
            "PRAGMA \(object.schemaID.name.quotedDatabaseIdentifier).foreign_key_check("
            + "\(object.name.quotedDatabaseIdentifier))"
        return try ForeignKeyViolation.fetchCursor(self, sql: sql)
    }

    /// Throws a ``DatabaseError`` that describes the first foreign key violation, if any:
    ///
    /// `SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id),
    /// in [id:1 authorId:2 name:"Moby-Dick"]`
    public func checkForeignKeys() throws {
        try checkForeignKeys(from: foreignKeyViolations())
    }

    /// Throws a ``DatabaseError`` that describes the first foreign key
    /// violation of a table, if any.
    public func checkForeignKeys(in tableName: String, in schemaName: String? = nil) throws {
        try checkForeignKeys(from: foreignKeyViolations(in: tableName, in: schemaName))
    }

    private func checkForeignKeys(from violations: RecordCursor<ForeignKeyViolation>) throws {
        if let violation = try violations.next() {
            // Finish the pragma before looking at the violating row.
            _ = try? violations.next()
            throw violation.databaseError(self)
        }
    }

    // MARK: - Internal helpers

    /// The schemas, in name resolution order: temp, main, then attached databases.
    func schemaIDs() throws -> [DatabaseSchemaID] {
        if let schemaIDs = schemaCache.schemaIDs {
            return schemaIDs
        }
        // PRAGMA database_list lists its rows in seq order; its second column is the name.
        let names = try Row.fetchAll(self, sql: "PRAGMA database_list").map { $0[1] as String }
        var schemaIDs = names.map { DatabaseSchemaID(name: $0) }
        if let tempIndex = schemaIDs.firstIndex(of: .temp) {
            schemaIDs.insert(schemaIDs.remove(at: tempIndex), at: 0)
        } else {
            schemaIDs.insert(.temp, at: 0)
        }
        schemaCache.schemaIDs = schemaIDs
        return schemaIDs
    }

    /// Read-only connections (such as the readers of a ``DatabasePool``) don't
    /// see the schema changes of other connections: they compare the schema
    /// version before they trust their cache, once per transaction (a read
    /// transaction sees one schema), or before each lookup outside of one.
    func validateSchemaCache() throws {
        guard isReadOnlyConnection, !schemaVersionIsChecked else { return }
        let version = try Int32.fetchOne(cachedStatement(sql: "PRAGMA schema_version")) ?? 0
        if schemaCache.schemaVersion != version {
            schemaCache.reset()
            schemaCache.schemaVersion = version
        }
        schemaVersionIsChecked = isInsideTransaction
    }

    /// The schema of a name, or an error "no such schema".
    func schemaID(named name: String) throws -> DatabaseSchemaID {
        let lowercased = name.lowercased()
        if let schemaID = try schemaIDs().first(where: { $0.name.lowercased() == lowercased }) {
            return schemaID
        }
        throw DatabaseError(message: "no such schema: \(name)")
    }

    /// The objects of a schema (`sqlite_master`).
    func masterEntries(in schemaID: DatabaseSchemaID) throws -> [SchemaCache.MasterEntry] {
        if let entries = schemaCache.masterEntries[schemaID] {
            return entries
        }
        let rows = try Row.fetchAll(self, sql: "SELECT type, name, tbl_name FROM \(schemaID.schemaTableName)")
        let entries = rows.map { row in
            SchemaCache.MasterEntry(type: row[0] ?? "", name: row[1] ?? "", tableName: row[2] ?? "")
        }
        schemaCache.masterEntries[schemaID] = entries
        return entries
    }

    /// The first schema that holds an object of one of the types, with its exact name.
    func firstSchemaID(
        containing name: String,
        types: Set<String>,
        in schemaName: String?
    ) throws -> DatabaseObjectID? {
        try validateSchemaCache()
        let lowercased = name.lowercased()
        let candidates = try schemaName.map { [try schemaID(named: $0)] } ?? schemaIDs()
        for schemaID in candidates {
            let entry = try masterEntries(in: schemaID).first {
                types.contains($0.type) && $0.name.lowercased() == lowercased
            }
            if let entry {
                return DatabaseObjectID(name: entry.name, schemaID: schemaID)
            }
        }
        return nil
    }

    /// The table or view of a name, or an error "no such table".
    func requireObject(_ name: String, in schemaName: String?) throws -> DatabaseObjectID {
        if let object = try firstSchemaID(containing: name, types: ["table", "view"], in: schemaName) {
            return object
        }
        throw DatabaseError(message: "no such table: \(name)")
    }

    /// Whether the object is a view.
    func isView(_ object: DatabaseObjectID) throws -> Bool {
        let lowercased = object.name.lowercased()
        return try masterEntries(in: object.schemaID).contains {
            $0.type == "view" && $0.name.lowercased() == lowercased
        }
    }
}

extension Database {
    /// Whether the table is a WITHOUT ROWID table: its primary key index
    /// does not end with the rowid (`PRAGMA index_xinfo` has no cid -1).
    func isWithoutRowIDTable(_ tableName: String) throws -> Bool {
        let object = try requireObject(tableName, in: nil)
        if try isView(object) { return false }
        let key = SchemaCache.ObjectKey(schemaID: object.schemaID, lowercasedName: object.name.lowercased())
        if let known = schemaCache.withoutRowID[key] { return known }
        var withoutRowID = false
        let indexes = try self.indexes(on: object.name, in: object.schemaID.name)
        if let primaryKeyIndex = indexes.first(where: { $0.origin == .primaryKeyConstraint }) {
            let schema = object.schemaID.name.quotedDatabaseIdentifier
            let sql = "PRAGMA \(schema).index_xinfo(\(primaryKeyIndex.name.quotedDatabaseIdentifier))"
            let rows = try Row.fetchAll(self, sql: sql)
            withoutRowID = !rows.contains { ($0["cid"] as Int?) == -1 }
        }
        schemaCache.withoutRowID[key] = withoutRowID
        return withoutRowID
    }
}
