/// An error thrown when a row value can't be decoded: a NULL where a value is
/// expected, a value that doesn't fit the type, or a missing column.
///
/// Its description names the column, the row, and the SQL.
public struct RowDecodingError: Error, Sendable {
    enum Impl: Sendable {
        case valueMismatch(type: String, dbValue: DatabaseValue)
        case columnNotFound
        case keyNotFound(String)
    }

    let impl: Impl
    let columnName: String?
    let columnIndex: Int?
    let rowDescription: String
    let sql: String?
    let arguments: StatementArguments?
    let publicStatementArguments: Bool

    static func make(
        _ impl: Impl, row: Row, columnName: String? = nil, columnIndex: Int? = nil
    ) -> RowDecodingError {
        let statement = row.statement
        return RowDecodingError(
            impl: impl,
            columnName: columnName ?? columnIndex.map { row.columnName(atUncheckedIndex: $0) },
            columnIndex: columnIndex,
            rowDescription: row.description,
            sql: statement?.sql,
            arguments: statement?.arguments,
            publicStatementArguments: statement?.database.configuration.publicStatementArguments ?? false)
    }
}

extension RowDecodingError: CustomStringConvertible {
    /// What could not be decoded, and where.
    public var description: String {
        var text: String
        switch impl {
        case .valueMismatch(let type, let dbValue):
            text = "could not decode \(type) from database value \(dbValue)"
        case .columnNotFound:
            text = "column not found: \(String(reflecting: columnName ?? ""))"
        case .keyNotFound(let key):
            text = "key not found: \(String(reflecting: key))"
        }
        var details: [String] = []
        if case .valueMismatch = impl {
            if let columnName { details.append("column: \(String(reflecting: columnName))") }
            if let columnIndex { details.append("column index: \(columnIndex)") }
        }
        details.append("row: \(rowDescription)")
        if let sql { details.append("sql: `\(sql)`") }
        if publicStatementArguments, let arguments, !arguments.isEmpty {
            details.append("arguments: \(arguments)")
        }
        text += " - " + details.joined(separator: ", ")
        return text
    }
}
