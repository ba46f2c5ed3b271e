import Foundation

/// A JSON array with one object per row, like the `json` mode of the sqlite3
/// shell.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .json())
/// // [{"id":1,"name":"Arthur"},
/// // {"id":2,"name":"Barbara"}]
/// ```
///
/// Blobs are encoded with the encoder's data strategy (base64 by default);
/// infinite and NaN doubles make the dump throw unless the encoder says
/// otherwise.
public struct JSONDumpFormat: DumpFormat, Sendable {
    /// The default encoder: base64 data, unescaped slashes.
    public static var defaultEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The encoder of column names and values.
    public var encoder: JSONEncoder

    private var hasWrittenRow = false

    /// Creates a format that writes rows as JSON objects with `encoder`; the default encoder writes
    /// blobs in base64 and leaves slashes unescaped.
    public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
        self.encoder = encoder
    }

    /// Writes one JSON object, its keys in column order. With the
    /// `.prettyPrinted` output formatting, each key is on its own line, still
    /// written `"key":value`, without a space.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        let pretty = encoder.outputFormatting.contains(.prettyPrinted)
        var members: [String] = []
        for (name, value) in zip(statement.columnNames, statement.dumpValues()) {
            try members.append(encode(name) + ":" + encodedValue(value))
        }
        let object: String
        if pretty {
            object = members.isEmpty ? "  {}" : "  {\n    " + members.joined(separator: ",\n    ") + "\n  }"
        } else {
            object = "{" + members.joined(separator: ",") + "}"
        }
        stream.write((hasWrittenRow ? ",\n" : (pretty ? "[\n" : "[")) + object)
        hasWrittenRow = true
    }

    /// Closes the array.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if hasWrittenRow {
            stream.write(encoder.outputFormatting.contains(.prettyPrinted) ? "\n]\n" : "]\n")
        } else {
            stream.write("[]\n")
        }
        hasWrittenRow = false
    }

    private func encodedValue(_ value: DatabaseValue) throws -> String {
        switch value.storage {
        case .null: return "null"
        case .int64(let int): return String(int)
        case .double(let double): return try encode(double)
        case .string(let string): return try encode(string)
        case .blob(let data): return try encode(data)
        }
    }

    private func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
