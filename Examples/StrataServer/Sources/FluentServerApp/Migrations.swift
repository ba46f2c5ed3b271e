import FluentKit
import SQLKit

/// The authors table.
struct CreateAuthor: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("author")
            .field("id", .int64, .identifier(auto: true))
            .field("name", .string, .required)
            .field("country", .string)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("author").delete()
    }
}

/// The books table, with a foreign key to their author (deleting an author
/// deletes their books), and the indexes that eager loading and titles use.
struct CreateBook: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("book")
            .field("id", .int64, .identifier(auto: true))
            .field("authorId", .int64, .required, .references("author", "id", onDelete: .cascade))
            .field("title", .string, .required)
            .field("year", .int)
            .create()
        // Fluent's schema builder makes no index: SQLKit does, on either
        // driver, since both databases are SQLKit databases too.
        let sql = database as! any SQLDatabase
        try await sql.create(index: "book_on_authorId").on("book").column("authorId").run()
        try await sql.create(index: "book_on_title").on("book").column("title").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("book").delete()
    }
}

extension Migrations {
    /// The migrations of the example.
    static var library: Migrations {
        let migrations = Migrations()
        migrations.add(CreateAuthor())
        migrations.add(CreateBook())
        return migrations
    }
}
