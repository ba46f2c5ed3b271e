/// The SQLite JSON functions (<https://www.sqlite.org/json1.html>), as
/// expressions for the query interface.
///
/// ```swift
/// // SELECT JSON_EXTRACT(info, '$.color') FROM team
/// let colors = try Team.select(Database.jsonExtract(Column("info"), atPath: "$.color"), as: String.self)
/// ```
///
/// Functions that build JSON (`jsonArray`, `jsonObject`, `jsonSet`...)
/// embed JSON expressions (``JSONColumn``, ``SQLSpecificExpressible/asJSON``)
/// as JSON, and other values as SQL values.
extension Database {
    // MARK: Access and query

    /// `JSON_ARRAY_LENGTH(value)`.
    public static func jsonArrayLength(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_ARRAY_LENGTH", [value.sqlExpression])
    }

    /// `JSON_ARRAY_LENGTH(value, path)`.
    public static func jsonArrayLength(_ value: some SQLExpressible, atPath path: some SQLExpressible)
        -> SQLExpression
    {
        jsonFunction("JSON_ARRAY_LENGTH", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_EXTRACT(value, path)`.
    public static func jsonExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_EXTRACT", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_EXTRACT(value, path1, path2, ...)`: a JSON array of the values.
    public static func jsonExtract(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>
    ) -> SQLExpression {
        jsonFunction("JSON_EXTRACT", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSON_TYPE(value)`: `'object'`, `'array'`, `'text'`, `'integer'`...
    public static func jsonType(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_TYPE", [value.sqlExpression])
    }

    /// `JSON_TYPE(value, path)`.
    public static func jsonType(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_TYPE", [value.sqlExpression, path.sqlExpression])
    }

    // MARK: Build

    /// `JSON(value)`: the minified JSON text, or an error for invalid JSON.
    public static func json(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON", [value.sqlExpression])
    }

    /// `JSON_ARRAY(value1, value2, ...)`.
    public static func jsonArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
        jsonFunction("JSON_ARRAY", values.map(\.sqlExpression.jsonBuildingArgument))
    }

    /// `JSON_ARRAY(value1, value2, ...)`.
    public static func jsonArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        jsonFunction("JSON_ARRAY", values.map(\.sqlExpression.jsonBuildingArgument))
    }

    /// `JSON_OBJECT(key1, value1, ...)`.
    public static func jsonObject(_ elements: some Collection<(key: String, value: any SQLExpressible)>)
        -> SQLExpression
    {
        jsonFunction("JSON_OBJECT", keyValueArguments(elements))
    }

    /// `JSON_QUOTE(value)`: the value as JSON (a string is quoted).
    public static func jsonQuote(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_QUOTE", [value.sqlExpression.jsonBuildingArgument])
    }

    /// The `JSON_GROUP_ARRAY(value)` aggregate, with an optional
    /// `FILTER (WHERE ...)` clause.
    public static func jsonGroupArray(_ value: some SQLExpressible, filter: (any SQLSpecificExpressible)? = nil)
        -> SQLExpression
    {
        jsonAggregate(
            SQLExpression(
                impl: .aggregate(
                    "JSON_GROUP_ARRAY", [value.sqlExpression.jsonBuildingArgument], distinct: false,
                    filter: filter?.sqlExpression)))
    }

    /// The `JSON_GROUP_OBJECT(key, value)` aggregate, with an optional
    /// `FILTER (WHERE ...)` clause.
    public static func jsonGroupObject(
        key: some SQLExpressible,
        value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil
    ) -> SQLExpression {
        jsonAggregate(
            SQLExpression(
                impl: .aggregate(
                    "JSON_GROUP_OBJECT", [key.sqlExpression, value.sqlExpression.jsonBuildingArgument], distinct: false,
                    filter: filter?.sqlExpression)))
    }

    // MARK: Modify

    /// `JSON_INSERT(value, path1, value1, ...)`: inserts where nothing exists.
    public static func jsonInsert(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>
    ) -> SQLExpression {
        jsonFunction("JSON_INSERT", [value.sqlExpression] + keyValueArguments(assignments))
    }

    /// `JSON_PATCH(value, patch)`: applies an RFC 7396 merge patch.
    public static func jsonPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_PATCH", [value.sqlExpression, patch.sqlExpression])
    }

    /// `JSON_REPLACE(value, path1, value1, ...)`: replaces what exists.
    public static func jsonReplace(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>
    ) -> SQLExpression {
        jsonFunction("JSON_REPLACE", [value.sqlExpression] + keyValueArguments(assignments))
    }

    /// `JSON_REMOVE(value, path)`.
    public static func jsonRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_REMOVE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_REMOVE(value, path1, path2, ...)`.
    public static func jsonRemove(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>
    ) -> SQLExpression {
        jsonFunction("JSON_REMOVE", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSON_SET(value, path1, value1, ...)`: inserts or replaces.
    public static func jsonSet(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>
    ) -> SQLExpression {
        jsonFunction("JSON_SET", [value.sqlExpression] + keyValueArguments(assignments))
    }

    // MARK: Validate

    /// `JSON_VALID(value)`: 1 for well-formed JSON, 0 otherwise.
    public static func jsonIsValid(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_VALID", [value.sqlExpression])
    }

    // MARK: Helpers

    /// A JSON function, checked when its SQL is generated (`SQLiteFeature.jsonFunctions`).
    static func jsonFunction(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        SQLExpression(impl: .requiring(.jsonFunctions, SQLExpression(impl: .function(name, arguments))))
    }

    /// A JSON aggregate, checked when its SQL is generated.
    private static func jsonAggregate(_ aggregate: SQLExpression) -> SQLExpression {
        SQLExpression(impl: .requiring(.jsonFunctions, aggregate))
    }

    private static func keyValueArguments(
        _ elements: some Collection<(key: String, value: any SQLExpressible)>
    ) -> [SQLExpression] {
        elements.flatMap { [$0.key.sqlExpression, $0.value.sqlExpression.jsonBuildingArgument] }
    }
}
