/// A value of a query, known now or computed once a connection is available
/// (the `...WhenConnected` request methods).
enum SQLDeferred<Value: Sendable>: Sendable {
    case value(Value)
    case deferred(@Sendable (Database) throws -> Value)

    func resolve(_ db: Database) throws -> Value {
        switch self {
        case .value(let value): return value
        case .deferred(let make): return try make(db)
        }
    }
}

/// The limit and offset of a query.
struct SQLLimit: Sendable {
    var limit: Int
    var offset: Int?

    var sql: String {
        if let offset { return "LIMIT \(limit) OFFSET \(offset)" }
        return "LIMIT \(limit)"
    }
}

/// A common table expression, embedded in a `WITH` clause.
struct SQLCTE: Sendable {
    var tableName: String
    var columns: [String]?
    var isRecursive: Bool
    var subquery: SQLSubquery

    func sql(_ context: SQLGenerationContext) throws -> String {
        var sql = tableName.quotedDatabaseIdentifier
        if let columns, !columns.isEmpty {
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        return try sql + " AS (" + subquery.sql(context) + ")"
    }
}

/// The parts of a query interface request: `SELECT ... FROM table WHERE ...`.
struct SQLQuery: Sendable {
    var tableName: String
    var alias: TableAliasBase?
    var selection: [SQLDeferred<[SQLSelection]>]
    var isDistinct = false
    var filters: [SQLDeferred<SQLExpression>] = []
    var groups: SQLDeferred<[SQLExpression]>?
    var havings: [SQLDeferred<SQLExpression>] = []
    var orderings: [SQLDeferred<[SQLOrdering]>] = []
    var isReversed = false
    var limit: SQLLimit?
    var ctes: [SQLCTE] = []
    /// Tables joined through associations (see SQLQuery+Joins.swift).
    var joins: [SQLJoin] = []
    /// To-many associations loaded by a second query (`including(all:)`).
    var prefetches: [SQLPrefetch] = []
    /// Hidden result columns, after all others (the keys of prefetched rows).
    var trailingSelection: [SQLSelection] = []
    /// Aliases of relations merged into this one (the same association
    /// joined twice): they name the same table.
    var mergedAliases: [TableAliasBase] = []

    init(tableName: String, selection: [any SQLSelectable]) {
        self.tableName = tableName
        self.selection = [.value(selection.map(\.sqlSelection))]
    }

    // MARK: Resolution

    /// The alias that qualifies columns, when the request was given a name.
    var qualifyingAlias: TableAliasBase? {
        alias.flatMap { $0.isQualifying ? $0 : nil }
    }

    func qualify(_ expression: SQLExpression) -> SQLExpression {
        expression.qualifiedIfNeeded(qualifyingAlias)
    }

    func resolvedSelection(_ db: Database) throws -> [SQLSelection] {
        try selection.flatMap { try $0.resolve(db) }
    }

    func resolvedFilter(_ db: Database) throws -> SQLExpression? {
        // Successive filters make one flat AND chain.
        let filters = try self.filters.flatMap { try qualify($0.resolve(db)).andOperands }
        if filters.isEmpty { return nil }
        return filters.count == 1 ? filters[0] : SQLExpression(impl: .associative(.and, filters))
    }

    func resolvedHaving(_ db: Database) throws -> SQLExpression? {
        let havings = try self.havings.map { try qualify($0.resolve(db)) }
        if havings.isEmpty { return nil }
        return havings.count == 1 ? havings[0] : SQLExpression(impl: .associative(.and, havings))
    }

    func resolvedOrderings(_ db: Database) throws -> [SQLOrdering] {
        var orderings = try self.orderings.flatMap { try $0.resolve(db) }
        if let alias = qualifyingAlias {
            orderings = orderings.map { $0.qualified(with: alias) }
        }
        return isReversed ? orderings.map(\.reversed) : orderings
    }

    // MARK: SQL

    /// The `FROM` clause source: `"table"` or `"table" "alias"`.
    func fromSQL() throws -> String {
        var sql = tableName.quotedDatabaseIdentifier
        if let alias = qualifyingAlias {
            let name = try alias.qualifier()
            if name != tableName {
                sql += " " + name.quotedDatabaseIdentifier
            }
        }
        return sql
    }

    func withSQL(_ context: SQLGenerationContext) throws -> String {
        if ctes.isEmpty { return "" }
        let recursive = ctes.contains(where: \.isRecursive) ? "RECURSIVE " : ""
        return try "WITH " + recursive + ctes.map { try $0.sql(context) }.joined(separator: ", ") + " "
    }

    /// `WHERE ... GROUP BY ... HAVING ...`, with a leading space when not empty.
    func filteringSQL(_ context: SQLGenerationContext) throws -> String {
        let db = context.db
        var sql = ""
        if let filter = try resolvedFilter(db) {
            sql += try " WHERE " + filter.sql(context)
        }
        if let groups = try groups?.resolve(db), !groups.isEmpty {
            sql += try " GROUP BY " + groups.map { try qualify($0).sql(context) }.joined(separator: ", ")
        }
        if let having = try resolvedHaving(db) {
            sql += try " HAVING " + having.sql(context)
        }
        return sql
    }

    func orderingSQL(_ context: SQLGenerationContext) throws -> String {
        let orderings = try resolvedOrderings(context.db)
        if orderings.isEmpty { return "" }
        return try " ORDER BY " + orderings.map { try $0.sql(context) }.joined(separator: ", ")
    }

    /// The full `SELECT` statement.
    func sql(_ context: SQLGenerationContext, forSingleResult singleResult: Bool = false) throws -> String {
        if !joins.isEmpty {
            return try joinedSQL(context, forSingleResult: singleResult).sql
        }
        // An unnamed alias of a single-table query does not qualify columns.
        let unqualified = alias.flatMap { $0.isQualifying ? nil : $0 }
        return try context.withUnqualifiedAlias(unqualified) {
            try singleTableSQL(context, forSingleResult: singleResult)
        }
    }

    private func singleTableSQL(_ context: SQLGenerationContext, forSingleResult singleResult: Bool) throws -> String {
        var sql = try withSQL(context)
        sql += isDistinct ? "SELECT DISTINCT " : "SELECT "
        sql += try (resolvedSelection(context.db) + trailingSelection)
            .map { try $0.sql(context, source: alias ?? TableAliasBase(tableName: tableName)) }
            .joined(separator: ", ")
        sql += try " FROM " + fromSQL()
        sql += try filteringSQL(context)
        sql += try orderingSQL(context)
        if let limit {
            sql += " " + (singleResult ? SQLLimit(limit: 1, offset: limit.offset) : limit).sql
        } else if singleResult, try needsSingleResultLimit(context.db) {
            sql += " LIMIT 1"
        }
        return sql
    }

    // MARK: Counting

    /// The SQL that counts the rows of the query.
    func countSQL(_ context: SQLGenerationContext) throws -> String {
        if hasJoinedSelections {
            return try strippingJoinedSelections().countSQL(context)
        }
        let db = context.db
        let selection = try resolvedSelection(db)
        let groups = try self.groups?.resolve(db) ?? []
        // A selection that defines aliases (`expression AS name`) that the
        // filter refers to is kept in a subquery (SQLite lets WHERE use the
        // names of result columns). An alias that nothing refers to is
        // dropped: `SELECT COUNT(DISTINCT "age" * 2) FROM "readers"`.
        // Groups, havings and limits always count through a subquery, which
        // keeps the aliases, and orderings are dropped without a limit: the
        // filter is the one clause to look at.
        let usesAliases = try selectionAliasesAreUsed(selection, context)
        if limit == nil && groups.isEmpty && havings.isEmpty && !usesAliases {
            if isDistinct {
                if selection.count == 1, let expression = selection[0].expression,
                    !expression.isAggregate
                {
                    // SELECT COUNT(DISTINCT expression) FROM ...
                    var counted = self
                    counted.isDistinct = false
                    counted.orderings = []
                    counted.selection = [
                        .value([
                            SQLSelection(
                                impl: .expression(
                                    .init(impl: .aggregate("COUNT", [expression], distinct: true, filter: nil))))
                        ])
                    ]
                    return try counted.sql(context)
                }
            } else if !selection.contains(where: { $0.expression?.isAggregate ?? false }) {
                var counted = self
                counted.orderings = []
                counted.selection = [.value([SQLSelection(impl: .expression(.init(impl: .countAll)))])]
                return try counted.sql(context)
            }
        }
        var trimmed = self
        if limit == nil { trimmed.orderings = [] }
        let subquerySQL = try trimmed.sql(context)
        return "SELECT COUNT(*) FROM (" + subquerySQL + ")"
    }

    /// Whether the query refers to a name that the selection gives to one
    /// of its result columns. Joined queries are not looked at: any alias
    /// counts as used there.
    private func selectionAliasesAreUsed(_ selection: [SQLSelection], _ context: SQLGenerationContext) throws -> Bool {
        var aliases: Set<String> = []
        for selection in selection {
            if case .aliasedExpression(_, let name) = selection.impl {
                aliases.insert(name.lowercased())
            }
        }
        if aliases.isEmpty { return false }
        if !joins.isEmpty { return true }
        return try resolvedFilter(context.db)?.mayRefer(toAnyOf: aliases) ?? false
    }
}

extension SQLExpression {
    /// Whether the expression may refer to one of the names (lowercased)
    /// without a table qualifier: a column of that name, an identifier or
    /// a literal whose text contains it. Subqueries may, too.
    func mayRefer(toAnyOf names: Set<String>) -> Bool {
        func textMayRefer(_ text: String) -> Bool {
            let text = text.lowercased()
            return names.contains { text.contains($0) }
        }
        switch impl {
        case .column(let name):
            return names.contains(name.lowercased())
        case .verbatim(let sql):
            return textMayRefer(sql)
        case .literal(let literal):
            return literal.elements.contains { element in
                switch element {
                case .sql(let sql, _): return textMayRefer(sql)
                case .expression(let expression): return expression.mayRefer(toAnyOf: names)
                case .selection(let selection): return selection.expression?.mayRefer(toAnyOf: names) ?? true
                case .ordering, .subquery: return true
                }
            }
        case .databaseValue, .qualifiedColumn, .countAll, .aliasExists, .aliasPrimaryKey:
            return false
        case .subquery, .exists, .inSubquery:
            return true
        case .function(_, let arguments):
            return arguments.contains { $0.mayRefer(toAnyOf: names) }
        case .aggregate(_, let arguments, _, let filter):
            return arguments.contains { $0.mayRefer(toAnyOf: names) } || (filter?.mayRefer(toAnyOf: names) ?? false)
        case .binary(_, let lhs, let rhs):
            return lhs.mayRefer(toAnyOf: names) || rhs.mayRefer(toAnyOf: names)
        case .associative(_, let operands):
            return operands.contains { $0.mayRefer(toAnyOf: names) }
        case .inList(let expression, let values, _):
            return expression.mayRefer(toAnyOf: names) || values.contains { $0.mayRefer(toAnyOf: names) }
        case .inTable(let expression, _, _):
            return expression.mayRefer(toAnyOf: names)
        case .between(let expression, let lower, let upper, _):
            return [expression, lower, upper].contains { $0.mayRefer(toAnyOf: names) }
        case .like(let expression, let pattern, let escape, _):
            return [expression, pattern].contains { $0.mayRefer(toAnyOf: names) }
                || (escape?.mayRefer(toAnyOf: names) ?? false)
        case .unary(_, let operand), .collated(let operand, _), .cast(let operand, _), .jsonValue(let operand),
            .requiring(_, let operand):
            return operand.mayRefer(toAnyOf: names)
        }
    }

    /// The operands of an AND chain, or the expression itself.
    var andOperands: [SQLExpression] {
        if case .associative(let op, let operands) = impl, op.sql == "AND", !operands.isEmpty {
            return operands.flatMap(\.andOperands)
        }
        return [self]
    }

    /// True if the expression contains an aggregate function.
    var isAggregate: Bool {
        switch impl {
        case .aggregate, .countAll: return true
        case .function(let name, let arguments):
            if arguments.count == 1 && ["MIN", "MAX"].contains(name.uppercased()) { return true }
            return arguments.contains(where: \.isAggregate)
        case .binary(_, let lhs, let rhs): return lhs.isAggregate || rhs.isAggregate
        case .associative(_, let operands): return operands.contains(where: \.isAggregate)
        case .unary(_, let operand), .collated(let operand, _), .cast(let operand, _), .requiring(_, let operand):
            return operand.isAggregate
        default: return false
        }
    }
}
