import Strata

/// The table `item(a INTEGER, b TEXT DEFAULT 'default', c INTEGER)`, for the
/// tests of records whose encoding writes other columns from one record to
/// the next (a skipped key leaves `b` at its default).
package enum ItemTable {
    /// An in-memory database with the table.
    package static func makeDatabase() throws -> DatabaseQueue {
        try inMemoryDatabase("CREATE TABLE item (a INTEGER, b TEXT DEFAULT 'default', c INTEGER)")
    }

    /// The rows, as "a b c" strings, in the order of their insertion.
    package static func rows(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT a || ' ' || b || ' ' || c FROM item ORDER BY rowid")
        }
    }
}
