import Foundation

/// A text stream that can cross to the queue of a database access.
private final class SendableStream: TextOutputStream, @unchecked Sendable {
    var base: (any TextOutputStream)?
    init(_ base: (any TextOutputStream)?) { self.base = base }
    func write(_ string: String) {
        if base != nil {
            base!.write(string)
        } else {
            print(string, terminator: "")
        }
    }
}

extension DatabaseReader {
    /// Prints the results of SQL statements, by default to the standard
    /// output. See ``Database/dumpSQL(_:format:to:)``.
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        let output = SendableStream(stream)
        try unsafeReentrantRead { db in
            try db.dumpSQL(sql, format: format, to: output)
        }
    }

    /// Prints the rows of a request, by default to the standard output.
    /// See ``Database/dumpRequest(_:format:to:)``.
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        let output = SendableStream(stream)
        try unsafeReentrantRead { db in
            try db.dumpRequest(request, format: format, to: output)
        }
    }

    /// Prints the rows of tables and views. See
    /// ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``.
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil
    ) throws {
        let output = SendableStream(stream)
        try unsafeReentrantRead { db in
            try db.dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: output)
        }
    }

    /// Prints the schema. See ``Database/dumpSchema(to:)``.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        let output = SendableStream(stream)
        try unsafeReentrantRead { db in
            try db.dumpSchema(to: output)
        }
    }

    /// Prints the schema and the content of all tables. See
    /// ``Database/dumpContent(format:to:)``.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil
    ) throws {
        let output = SendableStream(stream)
        try unsafeReentrantRead { db in
            try db.dumpContent(format: format, to: output)
        }
    }
}
