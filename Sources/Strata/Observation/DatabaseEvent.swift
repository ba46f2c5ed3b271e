import Foundation

extension DatabaseEventKind {
    /// The event kind (insert, delete, update) without the table.
    var eventKind: DatabaseEvent.Kind {
        switch self {
        case .insert: return .insert
        case .delete: return .delete
        case .update: return .update
        }
    }
}

/// One row inserted, updated or deleted, notified to
/// ``TransactionObserver/databaseDidChange(with:)``.
///
/// An event is only valid during the callback: keep a ``copy()`` to use it
/// later.
public struct DatabaseEvent {
    /// What happened to the row.
    public enum Kind: CInt, Sendable {
        /// A row was inserted (`SQLITE_INSERT`).
        case insert = 18
        /// A row was deleted (`SQLITE_DELETE`).
        case delete = 9
        /// A row was updated (`SQLITE_UPDATE`).
        case update = 23
    }

    /// The kind of change.
    public let kind: Kind

    /// The rowid of the changed row.
    public let rowID: Int64

    /// Names that point into SQLite's memory during the callback, or owned
    /// strings once copied.
    enum Names {
        case borrowed(database: UnsafePointer<CChar>, table: UnsafePointer<CChar>)
        case owned(database: String, table: String)
    }

    let names: Names

    init(kind: Kind, rowID: Int64, names: Names) {
        self.kind = kind
        self.rowID = rowID
        self.names = names
    }

    /// The name of the changed table.
    public var tableName: String {
        switch names {
        case .borrowed(_, let table): return String(cString: table)
        case .owned(_, let table): return table
        }
    }

    /// The name of the database schema: "main", "temp", or an attached database.
    public var databaseName: String {
        switch names {
        case .borrowed(let database, _): return String(cString: database)
        case .owned(let database, _): return database
        }
    }

    /// An event that stays valid after the callback.
    public func copy() -> DatabaseEvent {
        switch names {
        case .owned: return self
        case .borrowed:
            return DatabaseEvent(kind: kind, rowID: rowID, names: .owned(database: databaseName, table: tableName))
        }
    }

    /// Whether the event is about the named table (case-insensitive).
    func matches(tableName other: String) -> Bool {
        switch names {
        case .owned(_, let table):
            return table.caseInsensitiveCompare(other) == .orderedSame
        case .borrowed(_, let table):
            return other.withCString { sqlite3_stricmp($0, table) == 0 }
        }
    }
}

extension DatabaseEvent: CustomStringConvertible {
    /// A description such as `INSERT INTO player (rowid = 1)`.
    public var description: String {
        switch kind {
        case .insert: return "INSERT INTO \(tableName) (rowid = \(rowID))"
        case .update: return "UPDATE \(tableName) (rowid = \(rowID))"
        case .delete: return "DELETE FROM \(tableName) (rowid = \(rowID))"
        }
    }
}
