/// Values separated by a separator (`|` by default), one row per line, like
/// the `list` mode of the sqlite3 shell.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .list(header: true))
/// // id|name|score
/// // 1|Arthur|1000
/// ```
public struct ListDumpFormat: DumpFormat {
    /// Whether the first line gives the column names.
    public var header: Bool
    /// The text between values.
    public var separator: String
    /// The text of NULL values.
    public var nullValue: String

    private var hasWrittenHeader = false

    /// A list format.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }

    /// Writes one line of values.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if header && !hasWrittenHeader {
            hasWrittenHeader = true
            stream.write(statement.columnNames.joined(separator: separator) + "\n")
        }
        let values = statement.dumpValues().map { $0.dumpText(nullValue: nullValue, hexBlobs: false) }
        stream.write(values.joined(separator: separator) + "\n")
    }

    /// Writes nothing; gets ready for another statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        hasWrittenHeader = false
    }
}
