import Foundation

/// How dump methods (``Database/dumpSQL(_:format:to:)``,
/// ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``...) print
/// rows.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .list(header: true))
/// // id|name
/// // 1|Arthur
/// ```
public protocol DumpFormat {
    /// Writes the current row of the statement, which has just been stepped.
    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws

    /// Writes what follows the last row, once the statement has no more rows.
    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream)
}

/// The text output of dump methods. It separates dumped results with empty
/// lines (see ``margin()``).
public struct DumpStream: TextOutputStream {
    private var base: any TextOutputStream
    private var needsMargin = false
    private var isEmpty = true

    init(_ base: (any TextOutputStream)?) {
        self.base = base ?? StandardOutputStream()
    }

    /// Writes text.
    public mutating func write(_ string: String) {
        if string.isEmpty { return }
        if needsMargin {
            needsMargin = false
            if !isEmpty { base.write("\n") }
        }
        isEmpty = false
        base.write(string)
    }

    /// Makes the next written text start after an empty line, unless nothing
    /// was written yet.
    public mutating func margin() {
        needsMargin = true
    }
}

/// Prints to the standard output.
private struct StandardOutputStream: TextOutputStream {
    mutating func write(_ string: String) {
        print(string, terminator: "")
    }
}

/// Whether dumped tables are preceded by their name.
public enum DumpTableHeaderOptions: Sendable {
    /// Table names are printed when several tables are dumped.
    case automatic
    /// Table names are always printed.
    case always
}

extension DumpFormat where Self == DebugDumpFormat {
    /// Values separated by `|`, as readable as possible (the default format).
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}

extension DumpFormat where Self == JSONDumpFormat {
    /// A JSON array of objects, one per row.
    public static func json(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
        JSONDumpFormat(encoder: encoder)
    }
}

extension DumpFormat where Self == LineDumpFormat {
    /// One `column = value` line per column, rows separated by empty lines.
    public static func line(nullValue: String = "") -> Self {
        LineDumpFormat(nullValue: nullValue)
    }
}

extension DumpFormat where Self == ListDumpFormat {
    /// Values separated by `|`, like the `list` mode of the sqlite3 shell.
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}

extension DumpFormat where Self == QuoteDumpFormat {
    /// Values as SQL literals, like the `quote` mode of the sqlite3 shell.
    public static func quote(header: Bool = false, separator: String = ",") -> Self {
        QuoteDumpFormat(header: header, separator: separator)
    }
}

extension Statement {
    /// The value of a column of the current row, for dumps.
    func dumpValue(at index: Int) -> DatabaseValue {
        DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(index))
    }

    /// The values of the current row, for dumps.
    func dumpValues() -> [DatabaseValue] {
        (0..<columnCount).map(dumpValue(at:))
    }
}

extension DatabaseValue {
    /// Text for list-like dump formats: numbers and text as is, blobs as
    /// lossy UTF-8 text, NULL as `nullValue`.
    func dumpText(nullValue: String) -> String {
        switch storage {
        case .null: return nullValue
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// Text for the debug format: blobs that are UTF-8 as text, 16-byte
    /// blobs as uppercase UUIDs, other blobs as hexadecimal literals.
    func debugDumpText(nullValue: String) -> String {
        guard case .blob(let data) = storage, String(data: data, encoding: .utf8) == nil else {
            return dumpText(nullValue: nullValue)
        }
        if data.count == 16 {
            let uuid = data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            return uuid.uuidString
        }
        return data.sqlHexLiteral
    }

    /// The value as an SQL literal: `NULL`, `1`, `'text'`, `X'01FF'`.
    var dumpSQLLiteral: String {
        switch storage {
        case .null: return "NULL"
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return data.sqlHexLiteral
        }
    }
}

extension Data {
    /// `X'0102FF'`.
    fileprivate var sqlHexLiteral: String {
        "X'"
            + map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return byte < 16 ? "0" + hex : hex
            }.joined() + "'"
    }
}
