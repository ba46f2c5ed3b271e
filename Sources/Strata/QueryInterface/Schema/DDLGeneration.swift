import Foundation

// SQL generation for schema statements: DDL can't bind `?` arguments, so
// values are written as SQL literals.

extension DatabaseValue {
    /// The value as an SQL literal: `NULL`, `1`, `1.5`, `'text'`, `X'0102'`.
    var sqlLiteral: String {
        switch storage {
        case .null:
            return "NULL"
        case .int64(let int64):
            return String(int64)
        case .double(let double):
            if double.isNaN { return "NULL" }
            if double == .infinity { return "9e999" }
            if double == -.infinity { return "-9e999" }
            return "\(double)"
        case .string(let string):
            return "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            let hexDigits = Array("0123456789ABCDEF")
            var hex = ""
            for byte in data {
                hex.append(hexDigits[Int(byte >> 4)])
                hex.append(hexDigits[Int(byte & 0x0F)])
            }
            return "X'\(hex)'"
        }
    }
}

extension Database {
    /// Generates schema SQL: values end up as SQL literals.
    func ddlSQL(_ generate: (SQLGenerationContext) throws -> String) throws -> String {
        let context = SQLGenerationContext(self)
        context.inlinesValues = true
        let sql = try generate(context)
        return try inlineArguments(sql, context.arguments)
    }

    /// The columns of a foreign key to `table` that names none: its primary
    /// key (`rowid` when it has no explicit one), or nil when the table does
    /// not exist (yet).
    func referencedColumns(ofTable table: String) throws -> [String]? {
        guard try tableExists(table) else { return nil }
        return try primaryKey(table).columns
    }

    /// The SQL of an expression, with values as SQL literals.
    func ddlSQL(_ expression: SQLExpression) throws -> String {
        try ddlSQL { try expression.sql($0) }
    }

    /// The SQL of a literal, with values as SQL literals.
    func ddlSQL(_ literal: SQL) throws -> String {
        try ddlSQL { try literal.sql($0) }
    }

    /// Replaces the `?` placeholders of `sql` (outside of quotes and comments)
    /// with the arguments, written as SQL literals.
    func inlineArguments(_ sql: String, _ arguments: StatementArguments) throws -> String {
        if arguments.isEmpty { return sql }
        guard arguments.namedCount == 0 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "named arguments are not supported in schema definitions",
                sql: sql)
        }
        var values = arguments.values[...]
        var result = ""
        var quote: Character? = nil
        for character in sql {
            if let current = quote {
                if character == current { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" || character == "`" {
                quote = character
                result.append(character)
            } else if character == "[" {
                quote = "]"
                result.append(character)
            } else if character == "?" {
                guard let value = values.popFirst() else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of arguments", sql: sql)
                }
                result += value.sqlLiteral
            } else {
                result.append(character)
            }
        }
        guard values.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of arguments", sql: sql)
        }
        return result
    }
}
