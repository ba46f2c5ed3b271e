/// An SQL expression whose value is JSON text, such as a ``JSONColumn``.
///
/// JSON expressions give access to JSON subcomponents with the `->>` and
/// `->` SQL operators:
///
/// ```swift
/// let address = JSONColumn("address")
/// // SELECT * FROM player WHERE address ->> 'country' = 'DE'
/// let germanPlayers = try Player.filter(address["country"] == "DE").fetchAll(db)
/// ```
///
/// When given to the JSON functions of ``Database`` that build JSON values
/// (`Database/jsonArray(_:)`,
/// ``Database/jsonObject(_:)``...), they are embedded as JSON, not as strings.
public protocol SQLJSONExpressible: SQLSpecificExpressible {}

extension SQLJSONExpressible {
    /// The SQL value at the path, with the `->>` operator: `address ->> 'country'`.
    /// The path is a JSON path (`'$.country'`), a key (`'country'`), or an
    /// array index (`0`).
    public subscript(path: some SQLExpressible) -> SQLExpression {
        SQLExpression(
            impl: .requiring(.jsonOperators, SQLExpression(impl: .binary("->>", sqlExpression, path.sqlExpression))))
    }

    /// The JSON representation of the subcomponent at the path, with the `->`
    /// operator: `address -> 'country'`.
    public func jsonRepresentation(atPath path: some SQLExpressible) -> SQLExpression {
        SQLExpression(
            impl: .requiring(.jsonOperators, SQLExpression(impl: .binary("->", sqlExpression, path.sqlExpression))))
    }

    /// The `JSON_EXTRACT(value, path)` SQL function.
    public func jsonExtract(atPath path: some SQLExpressible) -> SQLExpression {
        Database.jsonExtract(self, atPath: path)
    }

    /// The `JSON_EXTRACT(value, path1, path2, ...)` SQL function.
    public func jsonExtract(atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
        Database.jsonExtract(self, atPaths: paths)
    }
}

/// A type-erased JSON expression, returned by ``SQLSpecificExpressible/asJSON``.
///
/// ```swift
/// // JSON_ARRAY(JSON("info"))
/// Database.jsonArray([Column("info").asJSON])
/// ```
public struct AnySQLJSONExpressible: SQLJSONExpressible, Sendable {
    /// The expression, marked as JSON.
    public let sqlExpression: SQLExpression

    /// Wraps a JSON expression.
    public init(_ base: some SQLJSONExpressible) {
        sqlExpression = base.sqlExpression.asJSONValue
    }

    init(sqlExpression: SQLExpression) {
        self.sqlExpression = sqlExpression.asJSONValue
    }
}

extension SQLSpecificExpressible {
    /// The expression, interpreted as JSON text by the JSON functions of
    /// ``Database`` and the `->`, `->>` operators.
    public var asJSON: AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: sqlExpression)
    }
}

extension SQLExpression {
    /// The expression, marked as JSON text.
    var asJSONValue: SQLExpression {
        if case .jsonValue = impl { return self }
        return SQLExpression(impl: .jsonValue(self))
    }

    /// The expression as an argument of a function that builds JSON: JSON
    /// text is embedded as JSON (`JSON(column)`), other values as SQL values.
    /// NULL, and the result of `->` (already JSON), are left as they are.
    var jsonBuildingArgument: SQLExpression {
        guard case .jsonValue(let base) = impl else { return self }
        switch base.impl {
        case .databaseValue(let dbValue) where dbValue.isNull:
            return base
        case .requiring(.jsonOperators, let operation):
            if case .binary("->", _, _) = operation.impl { return base }
            return Database.jsonFunction("JSON", [base])
        default:
            return Database.jsonFunction("JSON", [base])
        }
    }
}
