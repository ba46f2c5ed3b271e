/// Collects the statement arguments while SQL is generated.
final class SQLGenerationContext {
    let db: Database
    private(set) var arguments = StatementArguments()

    /// When true (schema statements, which can't bind `?`), values are
    /// written as SQL literals instead of being appended as arguments.
    var inlinesValues = false

    /// The names of the tables of joined requests, by alias identity (set
    /// when several tables share a name, or when aliases are merged).
    var aliasNames: [ObjectIdentifier: String] = [:]

    /// The unnamed alias of the single table of the query being written,
    /// whose columns need no qualifier.
    var unqualifiedAlias: TableAliasBase?

    /// Runs `body` while the columns of `alias` (if any) are written unqualified.
    func withUnqualifiedAlias<T>(_ alias: TableAliasBase?, _ body: () throws -> T) rethrows -> T {
        let saved = unqualifiedAlias
        unqualifiedAlias = alias
        defer { unqualifiedAlias = saved }
        return try body()
    }

    /// The name that qualifies the columns of an aliased table.
    func qualifier(_ alias: TableAliasBase) throws -> String {
        if let name = aliasNames[ObjectIdentifier(alias)] { return name }
        return try alias.qualifier()
    }

    init(_ db: Database) {
        self.db = db
    }

    /// Appends a positional argument and returns its placeholder.
    func append(argument: DatabaseValue) -> String {
        if inlinesValues { return argument.sqlLiteral }
        arguments.values.append(argument)
        return "?"
    }

    /// Appends arguments; returns false when a named argument conflicts.
    func append(arguments other: StatementArguments) -> Bool {
        arguments.append(contentsOf: other).isEmpty
    }
}
