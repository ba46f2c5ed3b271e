import Foundation

/// The default dump format: values separated by `|`, one row per line.
/// Unlike ``ListDumpFormat``, blobs that are not UTF-8 text print as
/// hexadecimal literals (`X'01FF'`), so that no value is lost.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player")
/// // 1|Arthur|1000
/// ```
public struct DebugDumpFormat: DumpFormat, Sendable {
    /// Whether the first line gives the column names.
    public var header: Bool
    /// The text between values.
    public var separator: String
    /// The text of NULL values.
    public var nullValue: String

    private var writer = SeparatedValuesWriter()

    /// Creates a format that writes one line of values per row, with hexadecimal literals for
    /// blobs that are not UTF-8 text; optionally a header line of column names.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }

    /// Writes one line of values.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let nullValue = nullValue
        writer.writeRow(statement, header: header, separator: separator, to: &stream) { value in
            value.debugDumpText(nullValue: nullValue)
        }
    }

    /// Writes nothing; gets ready for another statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        writer = SeparatedValuesWriter()
    }
}
