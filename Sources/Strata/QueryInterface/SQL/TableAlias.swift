/// The untyped base of ``TableAlias``: a table in a request, that other
/// expressions can refer to.
public class TableAliasBase: Hashable, @unchecked Sendable {
    private struct State {
        var name: String?
        var tableName: String?
    }

    private let state: Mutex<State>

    init(name: String?, tableName: String?) {
        state = Mutex(State(name: name, tableName: tableName))
    }

    convenience init(tableName: String) {
        self.init(name: nil, tableName: tableName)
    }

    /// The explicit name given by `TableAlias(name:)`.
    var name: String? { state.withLock { $0.name } }

    /// The name of the table of the request that uses the alias.
    var tableName: String? { state.withLock { $0.tableName } }

    /// True when the alias has an explicit name, which qualifies the columns of its request.
    var isQualifying: Bool { name != nil }

    /// Binds the alias to a table.
    func setTableName(_ tableName: String) {
        state.withLock { state in
            if state.tableName == nil { state.tableName = tableName }
        }
    }

    /// The name used to qualify columns: the explicit name, or the table name.
    func qualifier() throws -> String {
        let (name, tableName) = state.withLock { ($0.name, $0.tableName) }
        if let name = name ?? tableName { return name }
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "Table alias is not used by any request: call aliased(_:) on the request it refers to")
    }

    /// Aliases are equal when they are the same instance.
    public static func == (lhs: TableAliasBase, rhs: TableAliasBase) -> Bool {
        lhs === rhs
    }

    /// Hashes the identity of the alias.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// A column of the aliased table: `alias["id"]` is `"alias"."id"`.
    public subscript(column: String) -> SQLExpression {
        SQLExpression(impl: .qualifiedColumn(column, self))
    }

    /// The expression, where columns refer to the aliased table.
    public subscript(expression: some SQLSpecificExpressible) -> SQLExpression {
        expression.sqlExpression.qualified(with: self)
    }

    /// The ordering, where columns refer to the aliased table.
    public subscript(ordering: some SQLOrderingTerm) -> SQLOrdering {
        ordering.sqlOrdering.qualified(with: self)
    }

    /// The selection, where columns refer to the aliased table:
    /// `alias[AllColumns()]` is `"alias".*`.
    public subscript(selectable: some SQLSelectable) -> SQLSelection {
        qualifiedSelection(selectable.sqlSelection)
    }

    func qualifiedSelection(_ selection: SQLSelection) -> SQLSelection {
        switch selection.impl {
        case .allColumns: return SQLSelection(impl: .qualifiedAllColumns(self))
        case .expression(let expression): return SQLSelection(impl: .expression(expression.qualified(with: self)))
        case .aliasedExpression(let expression, let key):
            return SQLSelection(impl: .aliasedExpression(expression.qualified(with: self), key))
        default: return selection
        }
    }

}

/// A name for a table in a request, so that other expressions, such as
/// subqueries, can refer to its columns.
///
/// ```swift
/// let teamAlias = TableAlias()
/// let player = Player.filter(Column("teamID") == teamAlias[Column("id")])
/// let teams = Team.aliased(teamAlias).filter(player.exists())
/// ```
@dynamicMemberLookup
public final class TableAlias<RowDecoder>: TableAliasBase, @unchecked Sendable {
    /// Creates an alias; `name` is the SQL name, or nil to use the table name.
    public init(name: String? = nil) where RowDecoder == () {
        super.init(name: name, tableName: nil)
    }

    /// Creates an alias for a record type; `name` is the SQL name, or nil
    /// to use the table name.
    public init(name: String? = nil, for record: RowDecoder.Type = RowDecoder.self) {
        super.init(name: name, tableName: nil)
    }

    /// An expression that is true when the aliased table has a row (useful
    /// with optional joins): `"alias"."id" IS NOT NULL`, from the primary key.
    /// Its negation is `"alias"."id" IS NULL`.
    public var exists: SQLExpression {
        SQLExpression(impl: .aliasExists(self, negated: false))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// The columns of the record type.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// A column of the record type, qualified by the alias.
    public subscript<T>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLExpression
    where T: SQLSpecificExpressible {
        RowDecoder.databaseComponents[keyPath: keyPath].sqlExpression.qualified(with: self)
    }

    /// A column of the record type, qualified by the alias, as an ordering.
    public subscript<T>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLOrdering
    where T: SQLOrderingTerm {
        RowDecoder.databaseComponents[keyPath: keyPath].sqlOrdering.qualified(with: self)
    }

    /// A column of the record type, qualified by the alias, as a selection.
    public subscript<T>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLSelection
    where T: SQLSelectable {
        qualifiedSelection(RowDecoder.databaseComponents[keyPath: keyPath].sqlSelection)
    }
}
