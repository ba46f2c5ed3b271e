extension MutablePersistableRecord {
    /// Inserts the record, or updates the row that has the same primary
    /// or unique key: `INSERT ... ON CONFLICT DO UPDATE`.
    ///
    /// ```swift
    /// try player.upsert(db)
    /// ```
    ///
    /// Callbacks are those of an insertion: `didInsert` receives the rowid
    /// of the inserted or updated row.
    ///
    /// - Complexity: Runs one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` statement.
    public mutating func upsert(_ db: Database) throws {
        try upsertWithAllCallbacks(db, conflictTarget: [], strategy: .allColumns, assignments: nil, selection: []) {
            _ in
        }
    }

    /// Upserts the record, and returns the inserted or updated row, fetched
    /// with `RETURNING`.
    ///
    /// ```swift
    /// // INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 1000)
    /// // ON CONFLICT("id") DO UPDATE SET
    /// //   name = excluded.name,
    /// //   score = score + excluded.score
    /// // RETURNING *
    /// let upserted = try player.upsertAndFetch(db, onConflict: ["id"]) { excluded in
    ///     [Column("score") += excluded[Column("score")]]
    /// }
    /// ```
    ///
    /// - parameters:
    ///     - db: A connection, inside a write access.
    ///     - conflictTarget: The columns of the unique index that may
    ///       conflict; empty for any conflict.
    ///     - strategy: Which columns are overwritten by default.
    ///     - assignments: Assignments of the update, given the `excluded`
    ///       alias of the values that could not be inserted.
    ///
    /// - Complexity: Runs one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` statement.
    public mutating func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> Self where Self: FetchableRecord {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
    }

    /// Upserts the record, and returns the inserted or updated row decoded
    /// as another record type, fetched with `RETURNING`.
    ///
    /// - Complexity: Runs one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` statement.
    public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> T {
        var result: T?
        try upsertWithAllCallbacks(
            db, conflictTarget: conflictTarget, strategy: strategy, assignments: assignments,
            selection: T.databaseSelection
        ) { row in
            result = try T(row: row)
        }
        guard let result else {
            fatalError("\(type(of: self)): the upserted row was not fetched")
        }
        return result
    }

    mutating func upsertWithAllCallbacks(
        _ db: Database,
        conflictTarget: [String],
        strategy: UpsertUpdateStrategy,
        assignments: ((TableAlias<Self>) -> [ColumnAssignment])?,
        selection: [any SQLSelectable],
        fetch: (Row) throws -> Void
    ) throws {
        try withSaveCallbacks(db) { record in
            try PersistenceSuccess(
                record.withInsertCallbacks(db) { record in
                    try record.upsertWithoutCallbacks(
                        db, conflictTarget: conflictTarget, strategy: strategy, assignments: assignments,
                        selection: selection, fetch: fetch)
                })
        }
    }

    /// Runs `INSERT ... ON CONFLICT DO UPDATE ... RETURNING`, and gives the
    /// selected part of the returned row to `fetch`.
    func upsertWithoutCallbacks(
        _ db: Database,
        conflictTarget: [String],
        strategy: UpsertUpdateStrategy,
        assignments: ((TableAlias<Self>) -> [ColumnAssignment])?,
        selection: [any SQLSelectable],
        fetch: (Row) throws -> Void
    ) throws -> InsertionSuccess {
        try db.requireSQLiteFeature(.upsert)
        let info = db.recordPersistenceInfo(type(of: self))
        var container = try persistenceContainer(info)
        let primaryKey = try info.primaryKey(db)
        let context = SQLGenerationContext(db)

        let updates = Self.upsertAssignments(
            columns: container.columns, conflictTarget: conflictTarget, primaryKey: primaryKey.columns,
            strategy: strategy, explicit: assignments?(TableAlias<Self>(name: "excluded")) ?? [])

        var sql = PersistenceSQL.insert(
            tableName: info.tableName, columns: container.columns, conflictResolution: .abort)
        sql += " ON CONFLICT"
        if !conflictTarget.isEmpty {
            sql += "(" + conflictTarget.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        sql += " DO UPDATE SET " + (try updates.map { try $0.sql(context) }.joined(separator: ", "))
        let hasRowID = try info.hasRowID(db)
        var returning = selection
        if hasRowID {
            returning.append(Column.rowID)
        }
        if !returning.isEmpty {
            sql += try PersistenceSQL.returning(returning, tableName: info.tableName, context: context)
        }
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(
            StatementArguments(values: container.databaseValues + context.arguments.values, namedValues: [:]))
        var rowID = db.lastInsertedRowID
        if returning.isEmpty {
            try statement.execute()
        } else if let row = try Row.fetchOne(statement) {
            var names = Array(row.columnNames)
            var values = Array(row.databaseValues)
            if hasRowID {
                rowID = Int64.fromDatabaseValue(values.removeLast()) ?? rowID
                names.removeLast()
            }
            let fetchedRow = Row(names: names, values: values)
            fetchedRow.isCopyOfFetchedRow = true
            try fetch(fetchedRow)
        }
        let rowIDColumn = primaryKey.rowIDColumn
        if let rowIDColumn {
            container.setValue(rowID, forColumn: rowIDColumn)
        }
        _persistenceDidWrite(container, columns: nil)
        return InsertionSuccess(
            rowID: rowID, rowIDColumn: rowIDColumn, storedContainer: container, deferredContainer: nil)
    }
}

extension MutablePersistableRecord {
    /// The `DO UPDATE SET` assignments: the explicit ones first, then
    /// `"c" = "excluded"."c"` for the other inserted columns, but the
    /// conflict target and primary key. A `noOverwrite` assignment leaves
    /// its column out. With no assignment left, the primary key is assigned
    /// to itself, so that RETURNING returns the existing row.
    static func upsertAssignments(
        columns: [String],
        conflictTarget: [String],
        primaryKey: [String],
        strategy: UpsertUpdateStrategy,
        explicit: [ColumnAssignment]
    ) -> [ColumnAssignment] {
        var assigned = Set((conflictTarget + primaryKey).map { $0.lowercased() })
        var updates: [ColumnAssignment] = []
        for assignment in explicit {
            let lowercased = assignment.columnName.lowercased()
            assigned.insert(lowercased)
            if case .column(let name) = assignment.value.impl, name.lowercased() == lowercased {
                continue  // noOverwrite
            }
            updates.append(assignment)
        }
        if !strategy.contains(.noColumnUnlessSpecified) {
            for column in columns where !assigned.contains(column.lowercased()) {
                let excluded = "excluded".quotedDatabaseIdentifier + "." + column.quotedDatabaseIdentifier
                updates.append(
                    ColumnAssignment(columnName: column, value: SQLExpression(impl: .literal(SQL(sql: excluded)))))
            }
        }
        if updates.isEmpty {
            let column = primaryKey[0]
            updates = [ColumnAssignment(columnName: column, value: SQLExpression(impl: .column(column)))]
        }
        return updates
    }
}

extension RecordPersistenceInfo {
    /// Whether the table has a rowid (false for views and WITHOUT ROWID tables).
    func hasRowID(_ db: Database) throws -> Bool {
        if let hasRowID { return hasRowID }
        let result: Bool
        if try isView(db) {
            result = false
        } else {
            result = (try? db.makeStatement(sql: "SELECT rowid FROM " + tableName.quotedDatabaseIdentifier)) != nil
        }
        hasRowID = result
        return result
    }
}
