import Foundation

/// Observes the compilation of statements through SQLite's authorizer callback
/// (which Strata reserves) and records what each statement does.
final class StatementAuthorizer {
    /// The tables and columns read by the statement.
    private(set) var region = DatabaseRegion()
    /// Whether the statement changes the schema.
    private(set) var invalidatesDatabaseSchemaCache = false
    /// Whether the statement is BEGIN, COMMIT, ROLLBACK, SAVEPOINT or RELEASE.
    private(set) var isTransactionStatement = false
    /// The changes the statement may perform, for transaction observers.
    private(set) var eventKinds: [DatabaseEventKind] = []
    /// The savepoint the statement starts, releases or rolls back to.
    private(set) var savepointAction: SavepointAction?
    /// Whether the statement drops a table or a view.
    private var dropsTable = false

    func reset() {
        region = DatabaseRegion()
        invalidatesDatabaseSchemaCache = false
        isTransactionStatement = false
        if !eventKinds.isEmpty { eventKinds = [] }
        savepointAction = nil
        dropsTable = false
    }

    /// Handles one authorizer call. Always allows the action.
    func authorize(action: CInt, _ p1: String?, _ p2: String?, _ p3: String?) -> CInt {
        switch action {
        case SQLITE_READ:
            if let table = p1 {
                if let column = p2, !column.isEmpty {
                    region.formUnion(DatabaseRegion(table: table, columns: [column]))
                } else {
                    region.formUnion(DatabaseRegion(table: table))
                }
            }
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
            SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
            SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
            SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
            SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE, SQLITE_ATTACH, SQLITE_DETACH:
            invalidatesDatabaseSchemaCache = true
            if action == SQLITE_DROP_TABLE || action == SQLITE_DROP_TEMP_TABLE || action == SQLITE_DROP_VIEW
                || action == SQLITE_DROP_TEMP_VIEW || action == SQLITE_DROP_VTABLE
            {
                // DROP TABLE and DROP VIEW also ask for SQLITE_DELETE on the
                // dropped table: it must be allowed, or nothing is dropped.
                dropsTable = true
            }
        case SQLITE_TRANSACTION:
            isTransactionStatement = true
        case SQLITE_SAVEPOINT:
            isTransactionStatement = true
            if let operation = p1, let name = p2 {
                switch operation {
                case "BEGIN": savepointAction = .begin(name)
                case "RELEASE": savepointAction = .release(name)
                case "ROLLBACK": savepointAction = .rollback(name)
                default: break
                }
            }
        case SQLITE_INSERT:
            if let table = p1 { addEventKind(.insert(tableName: table)) }
        case SQLITE_DELETE:
            if let table = p1 {
                // Schema changes delete from sqlite_master: ignoring them would
                // cancel the change.
                guard !dropsTable, !table.lowercased().hasPrefix("sqlite_") else { break }
                addEventKind(.delete(tableName: table))
                // Ignoring the DELETE authorization keeps the deletion but
                // turns off the truncate optimization, so that every deleted
                // row is reported to transaction observers.
                return SQLITE_IGNORE
            }
        case SQLITE_UPDATE:
            if let table = p1, let column = p2 {
                addUpdatedColumn(column, of: table)
            }
        case SQLITE_FUNCTION:
            // COUNT(*) reads the whole table without SQLITE_READ of a column:
            // the table itself is registered by the READ on its rowid, or below.
            break
        default:
            break
        }
        return SQLITE_OK
    }

    private func addEventKind(_ kind: DatabaseEventKind) {
        let exists = eventKinds.contains { existing in
            existing.eventKind == kind.eventKind && existing.tableName == kind.tableName
        }
        if !exists { eventKinds.append(kind) }
    }

    private func addUpdatedColumn(_ column: String, of table: String) {
        for (index, kind) in eventKinds.enumerated() {
            if case .update(let tableName, var columns) = kind, tableName == table {
                columns.insert(column)
                eventKinds[index] = .update(tableName: tableName, columnNames: columns)
                return
            }
        }
        eventKinds.append(.update(tableName: table, columnNames: [column]))
    }
}

/// What a SAVEPOINT, RELEASE or ROLLBACK TO statement does.
enum SavepointAction {
    case begin(String)
    case release(String)
    case rollback(String)
}

extension Database {
    /// Installs the authorizer that feeds ``authorizer``. Wraps `sqlite3_set_authorizer`.
    func installAuthorizer() {
        let context = Unmanaged.passUnretained(authorizer).toOpaque()
        sqlite3_set_authorizer(
            sqliteConnection,
            { context, action, p1, p2, p3, _ in
                let authorizer = Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                return authorizer.authorize(
                    action: action,
                    p1.map { String(cString: $0) },
                    p2.map { String(cString: $0) },
                    p3.map { String(cString: $0) })
            },
            context)
    }
}
