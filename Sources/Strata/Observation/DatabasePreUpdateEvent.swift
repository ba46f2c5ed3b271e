import Foundation

/// A row about to be inserted, updated or deleted, with its values before and
/// after the change, notified to ``TransactionObserver/databaseWillChange(with:)``.
///
/// Pre-update events need an SQLite built with `SQLITE_ENABLE_PREUPDATE_HOOK`
/// (the system SQLite of Debian and Ubuntu has it; see
/// ``isSupported``). An event is only valid during the callback: keep a
/// ``copy()`` to use it later.
public struct DatabasePreUpdateEvent {
    /// What is about to happen to the row.
    public enum Kind: Int32, Sendable {
        /// A row is about to be inserted.
        case insert = 18
        /// A row is about to be deleted.
        case delete = 9
        /// A row is about to be updated.
        case update = 23
    }

    /// Whether the linked SQLite notifies pre-update events.
    public static var isSupported: Bool { _strata_preupdate_hook_available() != 0 }

    /// The kind of change.
    public let kind: Kind

    /// The rowid of the row before the change; nil for insertions.
    public let initialRowID: Int64?

    /// The rowid of the row after the change; nil for deletions.
    public let finalRowID: Int64?

    /// The number of columns of the row.
    public let count: Int

    /// 0 for a change made by the statement itself, 1 for a change made by a
    /// trigger it fired, 2 for a trigger fired by a trigger, and so on.
    public let depth: Int

    /// The name of the changed table.
    public let tableName: String

    /// The name of the database schema: "main", "temp", or an attached database.
    public let databaseName: String

    enum Values {
        /// Read from the connection during the callback.
        case live(SQLiteConnection)
        /// Copied.
        case copied(initial: [DatabaseValue]?, final: [DatabaseValue]?)
    }

    let values: Values

    /// The values of the row before the change; nil for insertions.
    public var initialDatabaseValues: [DatabaseValue]? {
        guard kind != .insert else { return nil }
        switch values {
        case .copied(let initial, _):
            return initial
        case .live(let connection):
            return (0..<count).map { Self.value(connection, $0, _strata_preupdate_old) }
        }
    }

    /// The values of the row after the change; nil for deletions.
    public var finalDatabaseValues: [DatabaseValue]? {
        guard kind != .delete else { return nil }
        switch values {
        case .copied(_, let final):
            return final
        case .live(let connection):
            return (0..<count).map { Self.value(connection, $0, _strata_preupdate_new) }
        }
    }

    /// The value of a column before the change, by column index; nil for
    /// insertions. The index must be in `0..<count`.
    public func initialDatabaseValue(atIndex index: Int) -> DatabaseValue? {
        guard kind != .insert else { return nil }
        precondition(index >= 0 && index < count, "Column index \(index) is out of range 0..<\(count)")
        switch values {
        case .copied(let initial, _):
            return initial?[index]
        case .live(let connection):
            return Self.value(connection, index, _strata_preupdate_old)
        }
    }

    /// The value of a column after the change, by column index; nil for
    /// deletions. The index must be in `0..<count`.
    public func finalDatabaseValue(atIndex index: Int) -> DatabaseValue? {
        guard kind != .delete else { return nil }
        precondition(index >= 0 && index < count, "Column index \(index) is out of range 0..<\(count)")
        switch values {
        case .copied(_, let final):
            return final?[index]
        case .live(let connection):
            return Self.value(connection, index, _strata_preupdate_new)
        }
    }

    /// An event that stays valid after the callback.
    public func copy() -> DatabasePreUpdateEvent {
        guard case .live = values else { return self }
        return DatabasePreUpdateEvent(
            kind: kind, initialRowID: initialRowID, finalRowID: finalRowID, count: count, depth: depth,
            tableName: tableName, databaseName: databaseName,
            values: .copied(initial: initialDatabaseValues, final: finalDatabaseValues))
    }

    private static func value(
        _ connection: SQLiteConnection,
        _ index: Int,
        _ read: (SQLiteConnection?, CInt, UnsafeMutablePointer<OpaquePointer?>?) -> CInt
    ) -> DatabaseValue {
        var value: OpaquePointer? = nil
        guard read(connection, CInt(index), &value) == SQLITE_OK, let value else { return .null }
        return DatabaseValue(sqliteValue: value)
    }
}

extension DatabasePreUpdateEvent {
    /// Builds the event of the pre-update hook callback.
    init(
        connection: SQLiteConnection, kind: Kind, databaseName: UnsafePointer<CChar>,
        tableName: UnsafePointer<CChar>, initialRowID: Int64, finalRowID: Int64
    ) {
        self.init(
            kind: kind,
            initialRowID: kind == .insert ? nil : initialRowID,
            finalRowID: kind == .delete ? nil : finalRowID,
            count: Int(_strata_preupdate_count(connection)),
            depth: Int(_strata_preupdate_depth(connection)),
            tableName: String(cString: tableName),
            databaseName: String(cString: databaseName),
            values: .live(connection))
    }
}
