import Strata

/// A full-text document record.
struct FTSDocument: TableRecord, FetchableRecord, Hashable {
    static let databaseTableName = "document"
    var content: String

    init(content: String) {
        self.content = content
    }

    init(row: Row) throws {
        content = row["content"]
    }
}

/// A book of an external content table.
struct FTSBook: TableRecord, FetchableRecord, Hashable {
    static let databaseTableName = "book"
    var id: Int64
    var title: String

    init(row: Row) throws {
        id = row["id"]
        title = row["title"]
    }
}

/// Creates a one-column table `document` with a module and tokenizer, inserts
/// the content, and returns whether the query matches it.
func ftsMatches(
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
