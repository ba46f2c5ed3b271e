import Strata

/// A full-text document record.
package struct FTSDocument: TableRecord, FetchableRecord, Hashable {
    package static let databaseTableName = "document"
    package var content: String

    package init(content: String) {
        self.content = content
    }

    package init(row: Row) throws {
        content = row["content"]
    }
}

/// A book of an external content table.
package struct FTSBook: TableRecord, FetchableRecord, Hashable {
    package static let databaseTableName = "book"
    package var id: Int64
    package var title: String

    package init(row: Row) throws {
        id = row["id"]
        title = row["title"]
    }
}

/// Creates a one-column table `document` with a module and tokenizer, inserts
/// the content, and returns whether the query matches it.
package func ftsMatches(
    _ content: String,
    _ query: String,
    create: (Database) throws -> Void
) throws -> Bool {
    let dbQueue = try DatabaseQueue()
    return try dbQueue.write { db in
        try create(db)
        try db.execute(sql: "INSERT INTO document(content) VALUES (?)", arguments: [content])
        return try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM document WHERE document MATCH ?", arguments: [query])! > 0
    }
}

/// Whether `query` matches `content` in a `document` table of FTS3 (of FTS4
/// with `fts4`) whose tokenizer is `tokenizer`.
package func ftsMatches(
    _ content: String, _ query: String, fts3Tokenizer tokenizer: FTS3TokenizerDescriptor, fts4: Bool = false
) throws -> Bool {
    try ftsMatches(content, query) { db in
        if fts4 {
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.tokenizer = tokenizer
                t.column("content")
            }
        } else {
            try db.create(virtualTable: "document", using: FTS3()) { t in
                t.tokenizer = tokenizer
                t.column("content")
            }
        }
    }
}

/// Whether `query` matches `content` in a `document` table of FTS5 whose
/// tokenizer is `tokenizer`.
package func ftsMatches(
    _ content: String, _ query: String, fts5Tokenizer tokenizer: FTS5TokenizerDescriptor
) throws -> Bool {
    try ftsMatches(content, query) { db in
        try db.create(virtualTable: "document", using: FTS5()) { t in
            t.tokenizer = tokenizer
            t.column("content")
        }
    }
}

/// The full-text modules whose tables can synchronize with a content table,
/// for the tests that run on both.
package enum SynchronizableFTSModule: String, CaseIterable, Sendable, CustomStringConvertible {
    /// ``FTS4``, with the FTS3 pattern syntax.
    case fts4
    /// ``FTS5``.
    case fts5

    /// The name of the module, for test arguments.
    package var description: String { rawValue }

    /// Creates the full-text table `name` with `columns`: with the porter
    /// tokenizer when `porter` is true, and synchronized with the table
    /// `content` when it is not nil.
    package func createTable(
        _ db: Database, named name: String, ifNotExists: Bool = false, columns: [String], porter: Bool = false,
        synchronizedWith content: String? = nil
    ) throws {
        switch self {
        case .fts4:
            try db.create(virtualTable: name, ifNotExists: ifNotExists, using: FTS4()) { t in
                if porter { t.tokenizer = .porter }
                if let content { t.synchronize(withTable: content) }
                for column in columns { t.column(column) }
            }
        case .fts5:
            try db.create(virtualTable: name, ifNotExists: ifNotExists, using: FTS5()) { t in
                if porter { t.tokenizer = .porter() }
                if let content { t.synchronize(withTable: content) }
                for column in columns { t.column(column) }
            }
        }
    }
}
