import Foundation

/// Internal helpers shared by the full-text engines.
enum FTSSupport {
    /// A private in-memory connection that validates patterns and tokenizes
    /// strings, for the APIs that do not receive a connection.
    private static let helperQueue: Result<DatabaseQueue, any Error> = Result { try DatabaseQueue() }

    /// Runs `body` on the private in-memory connection.
    static func inHelperDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try helperQueue.get().inDatabase(body)
    }

    /// A module argument for a name: as is when it is a plain identifier,
    /// quoted otherwise.
    static func argumentName(_ name: String) -> String {
        isBareword(name) && !(name.first?.isNumber ?? true) ? name : name.quotedDatabaseIdentifier
    }

    /// True if the string is made of ASCII letters, digits and underscores.
    static func isBareword(_ string: String) -> Bool {
        !string.isEmpty
            && string.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar == "_" || CharacterSet.alphanumerics.contains(scalar))
            }
    }

    /// An SQL string literal: `'text'`, with inner single quotes doubled.
    static func stringLiteral(_ string: String) -> String {
        "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The rowid column of a content table, for the triggers of synchronized
    /// full-text tables: its INTEGER PRIMARY KEY column when it has one.
    static func contentRowIDColumn(_ contentTable: String, _ db: Database) throws -> String? {
        try db.primaryKey(contentTable).rowIDColumn
    }

    /// The characters of a set, sorted, as one string (stable SQL).
    static func sortedString(_ characters: Set<Character>) -> String {
        String(characters.sorted())
    }

    /// Returns the statements that keep an external content full-text table
    /// in sync with its content table, named after the full-text table.
    static func triggerName(_ ftsTable: String, _ suffix: String) -> String {
        "__\(ftsTable)_\(suffix)"
    }

    /// Drops the triggers with the given suffixes for a full-text table.
    static func dropTriggers(_ db: Database, forTable tableName: String, suffixes: [String]) throws {
        for suffix in suffixes {
            try db.execute(sql: "DROP TRIGGER IF EXISTS " + triggerName(tableName, suffix).quotedDatabaseIdentifier)
        }
    }
}
