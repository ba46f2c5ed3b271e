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
