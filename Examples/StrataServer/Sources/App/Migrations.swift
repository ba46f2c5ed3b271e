#if STRATA
    import Strata
#else
    import GRDB
#endif

extension DatabaseMigrator {
    /// The schema of the example, one migration at a time.
    static var library: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: authors and books") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", onDelete: .cascade).notNull()
                t.column("title", .text).notNull()
                t.column("year", .integer)
            }
        }
        migrator.registerMigration("v2: author country, book titles index") { db in
            try db.alter(table: "author") { t in
                t.add(column: "country", .text)
            }
            try db.create(index: "book_on_title", on: "book", columns: ["title"])
        }
        return migrator
    }
}
