/// Values separated by a separator (`|` by default), one row per line, like
/// the `list` mode of the sqlite3 shell.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .list(header: true))
/// // id|name|score
/// // 1|Arthur|1000
/// ```
public struct ListDumpFormat: DumpFormat, Sendable {
    /// Whether the first line gives the column names.
    public var header: Bool
    /// The text between values.
    public var separator: String
    /// The text of NULL values.
    public var nullValue: String

    private var writer = SeparatedValuesWriter()

    /// Creates a format that writes one line of values per row, joined by `separator`, with
    /// `nullValue` for NULL; optionally after a header line of column names.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }

    /// Writes one line of values.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let nullValue = nullValue
        writer.writeRow(statement, header: header, separator: separator, to: &stream) { value in
            value.dumpText(nullValue: nullValue)
        }
    }

    /// Writes nothing; gets ready for another statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        writer = SeparatedValuesWriter()
    }
}

/// Writes rows as separated values, with an optional header: the common
/// part of ``ListDumpFormat`` and ``DebugDumpFormat``.
struct SeparatedValuesWriter {
    var hasWrittenHeader = false

    mutating func writeRow(
        _ statement: Statement, header: Bool, separator: String, to stream: inout DumpStream,
        text: (DatabaseValue) -> String
    ) {
        if header && !hasWrittenHeader {
            hasWrittenHeader = true
            stream.write(statement.columnNames.joined(separator: separator) + "\n")
        }
        stream.write(statement.dumpValues().map(text).joined(separator: separator) + "\n")
    }
}
