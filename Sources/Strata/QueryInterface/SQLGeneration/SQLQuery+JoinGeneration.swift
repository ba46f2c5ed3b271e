// The SQL of a joined query: resolving the table aliases of its joins, and
// generating its FROM, JOIN and selection clauses and the layout of the
// selected columns that lets rows be split into scopes.

// MARK: - Generation

/// A table of a joined request, during SQL generation.
private struct JoinedTable {
    var query: SQLQuery
    var alias: TableAliasBase
    var join: SQLJoin?
    var children: [JoinedTable]
    /// Whether the orderings of the table are reversed: `reversed()` on a
    /// request or an association reverses the tables nested inside it too.
    var isReversed: Bool

    init(query: SQLQuery, join: SQLJoin?, parentIsReversed: Bool = false) {
        self.query = query
        self.join = join
        self.alias = query.alias ?? TableAliasBase(tableName: query.tableName)
        self.alias.setTableName(query.tableName)
        let isReversed = parentIsReversed != query.isReversed
        self.isReversed = isReversed
        self.children = query.joins.map { JoinedTable(query: $0.relation, join: $0, parentIsReversed: isReversed) }
    }

    /// Every table, depth first.
    var all: [JoinedTable] { [self] + children.flatMap(\.all) }

    var mode: SQLJoin.Mode { join?.mode ?? .scoped }
}

/// Column counts of the selected tables, to build row scopes.
private struct ScopeLayout {
    var start: Int
    var count: Int
    var scopes: [(String, ScopeLayout)]

    var adapter: any RowAdapter {
        let base = RangeRowAdapter(start..<(start + count))
        if scopes.isEmpty { return base }
        var adapters: [String: any RowAdapter] = [:]
        for (key, layout) in scopes where adapters[key] == nil {
            adapters[key] = layout.adapter
        }
        return ScopeAdapter(base: base, scopes: adapters)
    }
}

extension SQLQuery {
    /// The SQL of a query with joined tables, and the adapter that splits
    /// fetched rows into scopes (nil when no joined table is selected).
    func joinedSQL(
        _ context: SQLGenerationContext, forSingleResult singleResult: Bool
    ) throws -> (sql: String, adapter: (any RowAdapter)?) {
        let db = context.db
        let root = JoinedTable(query: self, join: nil)
        try Self.resolveNames(root, context)

        // The definition met last, depth first, wins.
        var withQuery = self
        for table in root.all.dropFirst() {
            for cte in table.query.ctes {
                withQuery.addCTE(cte)
            }
        }
        let allCTEs = withQuery.ctes
        var sql = try withQuery.withSQL(context)

        // SELECT
        var columns: [String] = []
        var offset = 0
        let layout = try selectionLayout(root, columns: &columns, offset: &offset, context: context, ctes: allCTEs)
        sql += isDistinct ? "SELECT DISTINCT " : "SELECT "
        sql += columns.joined(separator: ", ")

        // FROM ... JOIN ...
        sql += try " FROM " + Self.tableSQL(root, context)
        sql += try Self.joinsSQL(root, parentIsOptional: false, context)

        // WHERE, GROUP BY, HAVING
        let filters = try self.filters.flatMap { try $0.resolve(db).qualified(with: root.alias).andOperands }
        if !filters.isEmpty {
            let filter = filters.count == 1 ? filters[0] : SQLExpression(impl: .associative(.and, filters))
            sql += try " WHERE " + filter.sql(context)
        }
        if let groups = try groups?.resolve(db), !groups.isEmpty {
            sql +=
                try " GROUP BY "
                + groups.map { try $0.qualified(with: root.alias).sql(context) }.joined(separator: ", ")
        }
        let havings = try self.havings.map { try $0.resolve(db).qualified(with: root.alias) }
        if !havings.isEmpty {
            let having = havings.count == 1 ? havings[0] : SQLExpression(impl: .associative(.and, havings))
            sql += try " HAVING " + having.sql(context)
        }

        // ORDER BY
        var orderings: [SQLOrdering] = []
        for table in root.all {
            var tableOrderings = try table.query.orderings.flatMap { try $0.resolve(db) }
                .map { $0.qualified(with: table.alias) }
            if table.isReversed {
                tableOrderings = tableOrderings.map(\.reversed)
            }
            orderings += tableOrderings
        }
        if !orderings.isEmpty {
            sql += try " ORDER BY " + orderings.map { try $0.sql(context) }.joined(separator: ", ")
        }
        if let limit {
            sql += " " + (singleResult ? SQLLimit(limit: 1, offset: limit.offset) : limit).sql
        } else if singleResult {
            sql += " LIMIT 1"
        }

        let adapter: (any RowAdapter)? = layout.scopes.isEmpty ? nil : layout.adapter
        return (sql, adapter)
    }

    /// Gives a name to every table: its alias name, or its table name,
    /// numbered when several tables share a name (`person1`, `person2`).
    private static func resolveNames(_ root: JoinedTable, _ context: SQLGenerationContext) throws {
        let tables = root.all
        var counts: [String: Int] = [:]
        for table in tables {
            let name = table.alias.name ?? table.query.tableName
            counts[name.lowercased(), default: 0] += 1
        }
        var numbers: [String: Int] = [:]
        for table in tables {
            var name = table.alias.name ?? table.query.tableName
            if table.alias.name == nil, counts[name.lowercased(), default: 0] > 1 {
                let number = numbers[name.lowercased(), default: 0] + 1
                numbers[name.lowercased()] = number
                name += String(number)
            }
            context.aliasNames[ObjectIdentifier(table.alias)] = name
            for merged in table.query.mergedAliases {
                merged.setTableName(table.query.tableName)
                context.aliasNames[ObjectIdentifier(merged)] = name
            }
        }
    }

    /// `"table"` or `"table" "name"`.
    private static func tableSQL(_ table: JoinedTable, _ context: SQLGenerationContext) throws -> String {
        let name = try context.qualifier(table.alias)
        var sql = table.query.tableName.quotedDatabaseIdentifier
        if name != table.query.tableName {
            sql += " " + name.quotedDatabaseIdentifier
        }
        return sql
    }

    /// The `JOIN` clauses of the children of a table, depth first. Joins
    /// nested in an optional join are optional as well.
    private static func joinsSQL(
        _ table: JoinedTable, parentIsOptional: Bool, _ context: SQLGenerationContext
    ) throws -> String {
        var sql = ""
        for child in table.children {
            guard let join = child.join else { continue }
            let isOptional = parentIsOptional || join.kind == .optional
            sql += isOptional ? " LEFT JOIN " : " JOIN "
            sql += try tableSQL(child, context)
            var conditions: [SQLExpression] = []
            if let condition = try join.condition.expression(context, left: table.alias, right: child.alias) {
                conditions.append(condition)
            }
            conditions += try child.query.filters.map { try $0.resolve(context.db).qualified(with: child.alias) }
            if !conditions.isEmpty {
                let on = conditions.count == 1 ? conditions[0] : SQLExpression.associative(.and, conditions)
                sql += try " ON " + on.sql(context)
            }
            sql += try joinsSQL(child, parentIsOptional: isOptional, context)
        }
        return sql
    }

    /// Appends the selected columns of a table and its joined tables, and
    /// returns the layout of the row scopes. A joined table that selects no
    /// column, but whose own joined tables do, has a scope of no column,
    /// where those tables have their scopes.
    private func selectionLayout(
        _ table: JoinedTable, columns: inout [String], offset: inout Int, context: SQLGenerationContext,
        ctes: [SQLCTE], selectsColumns: Bool = true
    ) throws -> ScopeLayout {
        let start = offset
        if selectsColumns {
            // The hidden columns of prefetched rows (the keys of their
            // origin rows) follow the columns of the destination table.
            for selection in try table.query.resolvedSelection(context.db) + table.query.trailingSelection {
                columns.append(try Self.selectionSQL(selection, in: table, context))
                offset += try Self.columnCount(of: selection, in: table, context: context, ctes: ctes)
            }
        }
        let count = offset - start
        var scopes: [(String, ScopeLayout)] = []
        for child in table.children {
            let selectsColumns = child.mode == .scoped
            guard selectsColumns || child.query.hasScopedJoins else { continue }
            let layout = try selectionLayout(
                child, columns: &columns, offset: &offset, context: context, ctes: ctes,
                selectsColumns: selectsColumns)
            scopes.append((child.join!.key, layout))
        }
        return ScopeLayout(start: start, count: count, scopes: scopes)
    }

    /// The SQL of a selected column, qualified by its table.
    private static func selectionSQL(
        _ selection: SQLSelection, in table: JoinedTable, _ context: SQLGenerationContext
    ) throws -> String {
        if case .allColumnsExcluding(let excluded) = selection.impl {
            let excludedSet = Set(excluded.map { $0.lowercased() })
            let names = try tableColumnNames(table.query.tableName, context: context, ctes: table.query.ctes)
            return try names.filter { !excludedSet.contains($0.lowercased()) }
                .map { try SQLExpression(impl: .qualifiedColumn($0, table.alias)).sql(context) }
                .joined(separator: ", ")
        }
        return try table.alias.qualifiedSelection(selection).sql(context, source: nil)
    }

    /// The number of columns of a selection.
    private static func columnCount(
        of selection: SQLSelection, in table: JoinedTable, context: SQLGenerationContext, ctes: [SQLCTE]
    ) throws -> Int {
        switch selection.impl {
        case .expression, .aliasedExpression:
            return 1
        case .allColumns:
            return try tableColumnCount(table.query.tableName, context: context, ctes: ctes)
        case .qualifiedAllColumns(let alias):
            return try tableColumnCount(alias.tableName ?? table.query.tableName, context: context, ctes: ctes)
        case .allColumnsExcluding(let excluded):
            let excludedSet = Set(excluded.map { $0.lowercased() })
            return try tableColumnNames(table.query.tableName, context: context, ctes: ctes)
                .filter { !excludedSet.contains($0.lowercased()) }.count
        case .literal(let literal):
            // Count the columns of the literal by compiling it alone.
            let literalContext = SQLGenerationContext(context.db)
            literalContext.aliasNames = context.aliasNames
            guard let sql = try? "SELECT " + literal.sql(literalContext) + " FROM " + tableSQL(table, literalContext),
                let statement = try? context.db.makeStatement(sql: sql)
            else { return 1 }
            return statement.columnCount
        }
    }

    /// A selection of `query`, whose columns refer to the table of `alias`
    /// (the selection of an association, appended to the selection of the
    /// request it annotates).
    static func qualifiedSelection(
        _ selection: SQLSelection, alias: TableAliasBase, of query: SQLQuery, _ db: Database
    ) throws -> [SQLSelection] {
        if case .allColumnsExcluding(let excluded) = selection.impl {
            let excludedSet = Set(excluded.map { $0.lowercased() })
            let context = SQLGenerationContext(db)
            return try tableColumnNames(query.tableName, context: context, ctes: query.ctes)
                .filter { !excludedSet.contains($0.lowercased()) }
                .map { SQLSelection(impl: .expression(SQLExpression(impl: .qualifiedColumn($0, alias)))) }
        }
        return [alias.qualifiedSelection(selection)]
    }

    /// The number of columns of `SELECT *` on a table or common table
    /// expression. A common table expression defined by a request that
    /// selects expressions only has one column per expression.
    private static func tableColumnCount(
        _ tableName: String, context: SQLGenerationContext, ctes: [SQLCTE]
    ) throws -> Int {
        if let cte = ctes.first(where: { $0.tableName.lowercased() == tableName.lowercased() }),
            cte.columns?.isEmpty ?? true, case .query(let query) = cte.subquery.impl, !query.hasJoinedSelections,
            let selection = try? query.resolvedSelection(context.db),
            selection.allSatisfy({ $0.isSingleColumn })
        {
            return selection.count
        }
        return try tableColumnNames(tableName, context: context, ctes: ctes).count
    }

    /// The columns of `SELECT *` on a table or common table expression.
    ///
    /// A common table expression defined by a request is compiled with the
    /// other common table expressions of the query, which it may read. One
    /// defined by an SQL literal is compiled alone.
    private static func tableColumnNames(
        _ tableName: String, context: SQLGenerationContext, ctes: [SQLCTE]
    ) throws -> [String] {
        guard let cte = ctes.first(where: { $0.tableName.lowercased() == tableName.lowercased() }) else {
            return try context.db.cachedStatement(sql: "SELECT * FROM \(tableName.quotedDatabaseIdentifier)")
                .columnNames
        }
        if let columns = cte.columns, !columns.isEmpty { return columns }
        var embedded = SQLQuery(tableName: tableName, selection: [AllColumns()])
        if case .query = cte.subquery.impl {
            embedded.ctes = ctes
        } else {
            embedded.ctes = [cte]
        }
        do {
            let sql =
                try embedded.withSQL(SQLGenerationContext(context.db)) + "SELECT * FROM "
                + tableName.quotedDatabaseIdentifier
            return try context.db.makeStatement(sql: sql).columnNames
        } catch let error as DatabaseError {
            throw DatabaseError(
                resultCode: error.extendedResultCode,
                message: "Can't compute the number of columns in the \(tableName.quotedDatabaseIdentifier) "
                    + "common table expression: " + (error.message ?? "unknown error")
                    + ". Check the syntax of the SQL definition, or provide the explicit list of selected columns "
                    + "with the `columns` parameter in the CommonTableExpression initializer.",
                sql: error.sql, arguments: error.arguments)
        }
    }
}

extension SQLSelection {
    /// True when the selection is one result column (not `*`).
    fileprivate var isSingleColumn: Bool {
        switch impl {
        case .expression, .aliasedExpression: return true
        default: return false
        }
    }
}
