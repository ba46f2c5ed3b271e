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

    func reset() {
        region = DatabaseRegion()
        invalidatesDatabaseSchemaCache = false
        isTransactionStatement = false
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
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
            isTransactionStatement = true
        case SQLITE_FUNCTION:
            // COUNT(*) reads the whole table without SQLITE_READ of a column:
            // the table itself is registered by the READ on its rowid, or below.
            break
        default:
            break
        }
        return SQLITE_OK
    }
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
