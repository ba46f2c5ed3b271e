import Foundation

/// An SQL expression: a value, a column, an SQL literal, an operation...
///
/// Build expressions from columns, values and operators rather than directly.
public struct SQLExpression: Sendable {
    indirect enum Impl: Sendable {
        /// A value, bound as a statement argument.
        case databaseValue(DatabaseValue)
        /// An SQL literal, such as `SQL("DATE(\(value))")`. Put in
        /// parentheses when it is the operand of an operator.
        case literal(SQL)
        /// SQL text written by the library that never needs parentheses nor
        /// a table qualifier: a number (`0`) or a quoted identifier.
        case verbatim(String)
        /// An unqualified column.
        case column(String)
        /// A column of an aliased table: `"alias"."name"`.
        case qualifiedColumn(String, TableAliasBase)
        /// A function call: `name(arguments)`.
        case function(String, [SQLExpression])
        /// An aggregate: `name([DISTINCT] arguments) [FILTER (WHERE filter)]`.
        case aggregate(String, [SQLExpression], distinct: Bool, filter: SQLExpression?)
        /// `COUNT(*)`.
        case countAll
        /// A binary operator: `lhs op rhs`.
        case binary(String, SQLExpression, SQLExpression)
        /// An associative operator applied to several operands.
        case associative(AssociativeBinaryOperator, [SQLExpression])
        /// A prefix operator: `NOT `, `-`, `~`.
        case unary(String, SQLExpression)
        /// `expression [NOT] IN (values)`.
        case inList(SQLExpression, [SQLExpression], negated: Bool)
        /// `expression [NOT] IN (subquery)`.
        case inSubquery(SQLExpression, SQLSubquery, negated: Bool)
        /// `expression [NOT] IN table`.
        case inTable(SQLExpression, String, negated: Bool)
        /// `expression [NOT] BETWEEN lower AND upper`.
        case between(SQLExpression, SQLExpression, SQLExpression, negated: Bool)
        /// `[NOT] EXISTS (subquery)`.
        case exists(SQLSubquery, negated: Bool)
        /// `expression [NOT] LIKE pattern [ESCAPE escape]`.
        case like(SQLExpression, SQLExpression, escape: SQLExpression?, negated: Bool)
        /// `expression COLLATE name`.
        case collated(SQLExpression, String)
        /// `CAST(expression AS type)`.
        case cast(SQLExpression, String)
        /// A subquery between parentheses.
        case subquery(SQLSubquery)
        /// An expression that holds JSON text (see `asJSON`).
        case jsonValue(SQLExpression)
        /// An expression that needs a feature of SQLite: the connection
        /// checks it when the SQL is generated (see `SQLiteFeature`).
        case requiring(SQLiteFeature, SQLExpression)
        /// Whether an aliased table has a row, from its fast primary key:
        /// `"alias"."id" IS NOT NULL`, `"alias"."rowid" IS NOT NULL` (`IS
        /// NULL` when negated).
        case aliasExists(TableAliasBase, negated: Bool)
        /// The primary key of an aliased table: `"alias"."id"` (the rowid
        /// for tables without a single-column primary key).
        case aliasPrimaryKey(TableAliasBase)
    }

    let impl: Impl

    init(impl: Impl) {
        self.impl = impl
    }

    /// The NULL expression.
    static let null = SQLExpression(impl: .databaseValue(.null))

    /// The `1` (true) constant.
    static let trueLiteral = SQLExpression(impl: .verbatim("1"))

    /// The `0` (false) constant.
    static let falseLiteral = SQLExpression(impl: .verbatim("0"))

    /// An identifier, quoted, never qualified with a table alias: `"name"`.
    static func unqualifiedIdentifier(_ name: String) -> SQLExpression {
        SQLExpression(impl: .verbatim(name.quotedDatabaseIdentifier))
    }

    /// The `false` value, bound as a statement argument (the filter of
    /// `none()`).
    static let falseValue = SQLExpression(impl: .databaseValue(false.databaseValue))

    /// True for a bound value that is false (zero), such as ``falseValue``.
    var isFalseValue: Bool {
        if case .databaseValue(let dbValue) = impl { return dbValue == false.databaseValue }
        return false
    }

    /// True if the expression is the NULL value.
    var isNullValue: Bool {
        if case .databaseValue(let dbValue) = impl { return dbValue.isNull }
        return false
    }

    /// The SQL of the expression, appending its arguments to the context.
    func sql(_ context: SQLGenerationContext) throws -> String {
        try sql(context, wrapped: false)
    }

    /// The SQL of the expression; compound expressions are wrapped in
    /// parentheses when `wrapped` is true (operands of other operators).
    func sql(_ context: SQLGenerationContext, wrapped: Bool) throws -> String {
        func wrap(_ sql: String) -> String { wrapped ? "(" + sql + ")" : sql }
        switch impl {
        case .databaseValue(let dbValue):
            if dbValue.isNull { return "NULL" }
            return context.append(argument: dbValue)
        case .literal(let literal):
            return try wrap(literal.sql(context))
        case .verbatim(let sql):
            return sql
        case .column(let name):
            return name.quotedDatabaseIdentifier
        case .qualifiedColumn(let name, let alias):
            if alias === context.unqualifiedAlias { return name.quotedDatabaseIdentifier }
            return try context.qualifier(alias).quotedDatabaseIdentifier + "." + name.quotedDatabaseIdentifier
        case .function(let name, let arguments):
            return try name + "(" + arguments.map { try $0.sql(context) }.joined(separator: ", ") + ")"
        case .aggregate(let name, let arguments, let distinct, let filter):
            var sql = name + "(" + (distinct ? "DISTINCT " : "")
            sql += try arguments.map { try $0.sql(context) }.joined(separator: ", ") + ")"
            if let filter {
                sql += try " FILTER (WHERE " + filter.sql(context) + ")"
            }
            return sql
        case .countAll:
            return "COUNT(*)"
        case .binary(let op, let lhs, let rhs):
            if case .collated(let base, let collation) = lhs.impl, Self.isComparison(op) {
                return try wrap(
                    base.sql(context, wrapped: true) + " " + op + " " + rhs.sql(context, wrapped: true)
                        + " COLLATE " + collation)
            }
            return try wrap(lhs.sql(context, wrapped: true) + " " + op + " " + rhs.sql(context, wrapped: true))
        case .associative(let op, let operands):
            switch operands.count {
            case 0: return try op.neutralValue.sql(context, wrapped: wrapped)
            case 1: return try operands[0].sql(context, wrapped: wrapped)
            default:
                return try wrap(operands.map { try $0.sql(context, wrapped: true) }.joined(separator: " \(op.sql) "))
            }
        case .unary(let op, let operand):
            return try wrap(op + operand.sql(context, wrapped: true))
        case .inList(let expression, let values, let negated):
            if values.isEmpty {
                return negated ? "1" : "0"
            }
            let list = try values.map { try $0.sql(context) }.joined(separator: ", ")
            return try wrap(expression.sql(context, wrapped: true) + (negated ? " NOT IN (" : " IN (") + list + ")")
        case .inSubquery(let expression, let subquery, let negated):
            return try wrap(
                expression.sql(context, wrapped: true) + (negated ? " NOT IN (" : " IN (")
                    + subquery.sql(context) + ")")
        case .inTable(let expression, let table, let negated):
            return try wrap(
                expression.sql(context, wrapped: true) + (negated ? " NOT IN " : " IN ")
                    + table.quotedDatabaseIdentifier)
        case .between(let expression, let lower, let upper, let negated):
            return try wrap(
                expression.sql(context, wrapped: true) + (negated ? " NOT BETWEEN " : " BETWEEN ")
                    + lower.sql(context, wrapped: true) + " AND " + upper.sql(context, wrapped: true))
        case .exists(let subquery, let negated):
            let sql = try (negated ? "NOT EXISTS (" : "EXISTS (") + subquery.sql(context) + ")"
            return negated ? wrap(sql) : sql
        case .like(let expression, let pattern, let escape, let negated):
            var sql = try expression.sql(context, wrapped: true) + (negated ? " NOT LIKE " : " LIKE ")
            sql += try pattern.sql(context, wrapped: true)
            if let escape {
                sql += try " ESCAPE " + escape.sql(context, wrapped: true)
            }
            return wrap(sql)
        case .collated(let expression, let collation):
            return try wrap(expression.sql(context, wrapped: true) + " COLLATE " + collation)
        case .cast(let expression, let type):
            return try "CAST(" + expression.sql(context) + " AS " + type + ")"
        case .subquery(let subquery):
            return try "(" + subquery.sql(context) + ")"
        case .jsonValue(let expression):
            return try expression.sql(context, wrapped: wrapped)
        case .requiring(let feature, let expression):
            try context.db.requireSQLiteFeature(feature)
            return try expression.sql(context, wrapped: wrapped)
        case .aliasExists(let alias, let negated):
            guard let tableName = alias.tableName else { _ = try alias.qualifier(); return "" }
            if try context.db.isViewWithoutPrimaryKey(tableName) {
                // A view row exists unless all its columns are NULL.
                let tests = try context.db.columns(in: tableName).map { column in
                    SQLExpression(
                        impl: .binary(
                            negated ? "IS" : "IS NOT", SQLExpression(impl: .qualifiedColumn(column.name, alias)), .null)
                    )
                }
                return try SQLExpression.associative(negated ? .and : .or, tests).sql(context, wrapped: wrapped)
            }
            // A row exists when its fast primary key is not NULL: the
            // INTEGER PRIMARY KEY, the rowid, or (WITHOUT ROWID tables) any
            // of the primary key columns.
            let columns =
                try context.db.tableExists(tableName)
                ? SQLQuery.fastPrimaryKeyColumns(context.db, tableName: tableName)
                : context.db.primaryKey(tableName).columns
            let tests = columns.map { column in
                SQLExpression(
                    impl: .binary(
                        negated ? "IS" : "IS NOT", SQLExpression(impl: .qualifiedColumn(column, alias)), .null))
            }
            let expression = tests.count == 1 ? tests[0] : SQLExpression.associative(negated ? .and : .or, tests)
            return try expression.sql(context, wrapped: wrapped)
        case .aliasPrimaryKey(let alias):
            guard let tableName = alias.tableName else { _ = try alias.qualifier(); return "" }
            let columns = try context.db.primaryKey(tableName).columns
            let column = columns.count == 1 ? columns[0] : "rowid"
            return try SQLExpression(impl: .qualifiedColumn(column, alias)).sql(context)
        }
    }

    private static func isComparison(_ op: String) -> Bool {
        switch op {
        case "=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT": return true
        default: return false
        }
    }

    /// The request of a subquery expression, which an SQL literal writes as
    /// is, without parentheses: `SELECT * FROM (\(request))`.
    var topLevelSubquery: SQLSubquery? {
        if case .subquery(let subquery) = impl { return subquery }
        return nil
    }

    /// The expression as a selected result column named `key`.
    func aliased(_ key: String) -> SQLSelection {
        SQLSelection(impl: .aliasedExpression(self, key))
    }

    /// The expression where unqualified columns refer to `alias`.
    func qualified(with alias: TableAliasBase) -> SQLExpression {
        switch impl {
        case .column(let name): return SQLExpression(impl: .qualifiedColumn(name, alias))
        case .databaseValue, .literal, .verbatim, .qualifiedColumn, .countAll, .exists, .subquery, .aliasExists,
            .aliasPrimaryKey:
            return self
        case .function(let name, let arguments):
            return SQLExpression(impl: .function(name, arguments.map { $0.qualified(with: alias) }))
        case .aggregate(let name, let arguments, let distinct, let filter):
            return SQLExpression(
                impl: .aggregate(
                    name, arguments.map { $0.qualified(with: alias) }, distinct: distinct,
                    filter: filter?.qualified(with: alias)))
        case .binary(let op, let lhs, let rhs):
            return SQLExpression(impl: .binary(op, lhs.qualified(with: alias), rhs.qualified(with: alias)))
        case .associative(let op, let operands):
            return SQLExpression(impl: .associative(op, operands.map { $0.qualified(with: alias) }))
        case .unary(let op, let operand):
            return SQLExpression(impl: .unary(op, operand.qualified(with: alias)))
        case .inList(let expression, let values, let negated):
            return SQLExpression(
                impl: .inList(
                    expression.qualified(with: alias), values.map { $0.qualified(with: alias) }, negated: negated))
        case .inSubquery(let expression, let subquery, let negated):
            return SQLExpression(impl: .inSubquery(expression.qualified(with: alias), subquery, negated: negated))
        case .inTable(let expression, let table, let negated):
            return SQLExpression(impl: .inTable(expression.qualified(with: alias), table, negated: negated))
        case .between(let expression, let lower, let upper, let negated):
            return SQLExpression(
                impl: .between(
                    expression.qualified(with: alias), lower.qualified(with: alias), upper.qualified(with: alias),
                    negated: negated))
        case .like(let expression, let pattern, let escape, let negated):
            return SQLExpression(
                impl: .like(
                    expression.qualified(with: alias), pattern.qualified(with: alias),
                    escape: escape?.qualified(with: alias), negated: negated))
        case .collated(let expression, let collation):
            return SQLExpression(impl: .collated(expression.qualified(with: alias), collation))
        case .cast(let expression, let type):
            return SQLExpression(impl: .cast(expression.qualified(with: alias), type))
        case .jsonValue(let expression):
            return SQLExpression(impl: .jsonValue(expression.qualified(with: alias)))
        case .requiring(let feature, let expression):
            return SQLExpression(impl: .requiring(feature, expression.qualified(with: alias)))
        }
    }

    /// `expression = 0`, with a literal zero: the test of an empty count.
    static func isZero(_ expression: SQLExpression) -> SQLExpression {
        SQLExpression(impl: .binary("=", expression, .zeroLiteral))
    }

    /// The `0` constant of ``isZero(_:)``.
    static let zeroLiteral = SQLExpression(impl: .verbatim("0"))

    /// True for the `0` constant, or an SQL literal that is `0`.
    var isZeroLiteral: Bool {
        switch impl {
        case .verbatim("0"): return true
        case .literal(let literal): return literal.isZeroLiteral
        default: return false
        }
    }

    /// The logical negation, with `NOT IN`, `NOT BETWEEN`, `NOT EXISTS`,
    /// `NOT LIKE` and `IS NOT` where possible.
    var negated: SQLExpression {
        switch impl {
        case .unary("NOT ", let operand): return operand
        case .inList(let e, let values, let negated): return SQLExpression(impl: .inList(e, values, negated: !negated))
        case .inSubquery(let e, let s, let negated): return SQLExpression(impl: .inSubquery(e, s, negated: !negated))
        case .inTable(let e, let t, let negated): return SQLExpression(impl: .inTable(e, t, negated: !negated))
        case .between(let e, let l, let u, let negated):
            return SQLExpression(impl: .between(e, l, u, negated: !negated))
        case .exists(let s, let negated): return SQLExpression(impl: .exists(s, negated: !negated))
        case .like(let e, let p, let escape, let negated):
            return SQLExpression(impl: .like(e, p, escape: escape, negated: !negated))
        case .aliasExists(let alias, let negated): return SQLExpression(impl: .aliasExists(alias, negated: !negated))
        case .binary("=", let lhs, let rhs) where rhs.isZeroLiteral && lhs.isAggregate:
            // !aggregate.isEmpty: COUNT(...) > 0
            return SQLExpression(impl: .binary(">", lhs, rhs))
        case .binary("IS", let lhs, let rhs): return SQLExpression(impl: .binary("IS NOT", lhs, rhs))
        case .binary("IS NOT", let lhs, let rhs): return SQLExpression(impl: .binary("IS", lhs, rhs))
        default: return SQLExpression(impl: .unary("NOT ", self))
        }
    }
}

extension SQLExpression {
    /// An operator that can join any number of operands: `a + b + c`.
    ///
    /// See `Sequence.joined(operator:)`.
    public struct AssociativeBinaryOperator: Hashable, Sendable {
        let sql: String
        let neutralValue: SQLExpression

        /// The `+` operator (an empty sequence gives 0).
        public static let add = AssociativeBinaryOperator(sql: "+", neutralValue: 0.sqlExpression)
        /// The `*` operator (an empty sequence gives 1).
        public static let multiply = AssociativeBinaryOperator(sql: "*", neutralValue: 1.sqlExpression)
        /// The `AND` operator (an empty sequence gives true).
        public static let and = AssociativeBinaryOperator(sql: "AND", neutralValue: .trueLiteral)
        /// The `OR` operator (an empty sequence gives false).
        public static let or = AssociativeBinaryOperator(sql: "OR", neutralValue: .falseLiteral)
        /// The `||` string concatenation operator (an empty sequence gives '').
        public static let concat = AssociativeBinaryOperator(sql: "||", neutralValue: "".sqlExpression)
        /// The `&` bitwise operator (an empty sequence gives -1).
        public static let bitwiseAnd = AssociativeBinaryOperator(sql: "&", neutralValue: (-1).sqlExpression)
        /// The `|` bitwise operator (an empty sequence gives 0).
        public static let bitwiseOr = AssociativeBinaryOperator(sql: "|", neutralValue: 0.sqlExpression)

        /// Operators are equal when they have the same SQL (which determines
        /// their neutral value).
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.sql == rhs.sql }

        /// Hashes the SQL of the operator.
        public func hash(into hasher: inout Hasher) { hasher.combine(sql) }
    }

    /// Joins two expressions with an associative operator, flattening nested uses.
    static func associative(_ op: AssociativeBinaryOperator, _ operands: [SQLExpression]) -> SQLExpression {
        var flat: [SQLExpression] = []
        for operand in operands {
            if case .associative(let other, let nested) = operand.impl, other.sql == op.sql, !nested.isEmpty {
                flat += nested
            } else {
                flat.append(operand)
            }
        }
        return SQLExpression(impl: .associative(op, flat))
    }
}

extension SQLExpression: SQLSpecificExpressible {
    /// Returns self.
    public var sqlExpression: SQLExpression { self }
}
