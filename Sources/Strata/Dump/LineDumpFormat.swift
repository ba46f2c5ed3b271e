/// One `column = value` line per column, with column names aligned, and an
/// empty line between rows, like the `line` mode of the sqlite3 shell.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .line())
/// //    id = 1
/// //  name = Arthur
/// // score = 1000
/// ```
public struct LineDumpFormat: DumpFormat, Sendable {
    /// The text of NULL values.
    public var nullValue: String

    private var hasWrittenRow = false

    /// Creates a format that writes one `column = value` line per column, with `nullValue` for
    /// NULL (an empty string by default).
    public init(nullValue: String = "") {
        self.nullValue = nullValue
    }

    /// Writes the lines of one row, after an empty line when a row was
    /// written before, by this statement or a previous one.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if hasWrittenRow { stream.margin() }
        hasWrittenRow = true
        let names = statement.columnNames
        let width = names.map(\.count).max() ?? 0
        for (name, value) in zip(names, statement.dumpValues()) {
            let padding = String(repeating: " ", count: width - name.count)
            stream.write(padding + name + " = " + value.dumpText(nullValue: nullValue) + "\n")
        }
    }

    /// Writes nothing: the rows of the next statement follow after an empty line.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {}
}
