/// One registered migration: its identifier, the identifiers it merges, how
/// it handles foreign keys, and the code that changes the database.
struct Migration: Sendable {
    /// How a migration treats foreign keys.
    enum ForeignKeyMode: Sendable, Equatable {
        /// Foreign keys are disabled during the migration; when `checked`,
        /// violations are looked for before the commit.
        case deferred(checked: Bool)
        /// Foreign keys stay as the connection has them.
        case immediate
    }

    /// The identifier stored in `grdb_migrations`.
    let identifier: String

    /// The identifiers of older migrations this one replaces.
    let mergedIdentifiers: Set<String>

    let foreignKeyMode: ForeignKeyMode

    /// Receives the identifiers of the merged migrations that were applied.
    let migrate: @Sendable (Database, Set<String>) throws -> Void

    /// Runs the migration in its own transaction, and records it in
    /// `grdb_migrations` before the commit.
    ///
    /// Must be called outside of any transaction, once `grdb_migrations` exists.
    func run(_ db: Database, appliedIdentifiers: Set<String>) throws {
        // Migrations see the schema as it is: no schema source, and no
        // schema cached from before, nor left behind for after.
        db.clearSchemaCache()
        defer { db.clearSchemaCache() }
        try db.withSchemaSource(nil) {
            try runWithoutSchemaSource(db, appliedIdentifiers: appliedIdentifiers)
        }
    }

    private func runWithoutSchemaSource(_ db: Database, appliedIdentifiers: Set<String>) throws {
        let appliedMerged = mergedIdentifiers.intersection(appliedIdentifiers)
        switch foreignKeyMode {
        case .immediate:
            try runInTransaction(db, appliedMerged: appliedMerged, checksForeignKeys: false)

        case .deferred(let checked):
            // `PRAGMA foreign_keys` is a no-op inside a transaction: toggle it
            // around the migration transaction.
            let foreignKeysEnabled = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
            guard foreignKeysEnabled else {
                // The connection does not enforce foreign keys: nothing to defer.
                try runInTransaction(db, appliedMerged: appliedMerged, checksForeignKeys: false)
                return
            }
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            let result = Result {
                try runInTransaction(db, appliedMerged: appliedMerged, checksForeignKeys: checked)
            }
            try db.executeBookkeeping(sql: "PRAGMA foreign_keys = ON", after: result)
        }
    }

    private func runInTransaction(_ db: Database, appliedMerged: Set<String>, checksForeignKeys: Bool) throws {
        try db.inTransaction(.immediate) {
            try migrate(db, appliedMerged)
            if checksForeignKeys {
                try db.checkForeignKeys()
            }
            try db.execute(
                sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)",
                arguments: [identifier])
            // The merged migrations are replaced by this one.
            try Migration.forget(appliedMerged, db)
            return .commit
        }
    }

    /// Removes migrations from `grdb_migrations`.
    static func forget(_ identifiers: Set<String>, _ db: Database) throws {
        guard !identifiers.isEmpty else { return }
        let placeholders = Array(repeating: "?", count: identifiers.count).joined(separator: ", ")
        try db.execute(
            sql: "DELETE FROM grdb_migrations WHERE identifier IN (\(placeholders))",
            arguments: StatementArguments(identifiers.sorted()))
    }
}
