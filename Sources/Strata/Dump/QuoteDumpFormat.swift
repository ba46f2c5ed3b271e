/// Values as SQL literals separated by commas, like the `quote` mode of the
/// sqlite3 shell.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .quote())
/// // 1,'Arthur',NULL
/// ```
public struct QuoteDumpFormat: DumpFormat, Sendable {
    /// Whether the first line gives the column names (as SQL strings).
    public var header: Bool
    /// The text between values.
    public var separator: String

    private var hasWrittenHeader = false

    /// Creates a format that writes each row as a line of SQL literals (`'text'`, `NULL`, ...),
    /// optionally after a header line of column names.
    public init(header: Bool = false, separator: String = ",") {
        self.header = header
        self.separator = separator
    }

    /// Writes one line of SQL literals.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if header && !hasWrittenHeader {
            hasWrittenHeader = true
            let names = statement.columnNames.map { $0.databaseValue.dumpSQLLiteral }
            stream.write(names.joined(separator: separator) + "\n")
        }
        stream.write(statement.dumpValues().map(\.dumpSQLLiteral).joined(separator: separator) + "\n")
    }

    /// Writes nothing; gets ready for another statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        hasWrittenHeader = false
    }
}
