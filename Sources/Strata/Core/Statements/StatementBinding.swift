/// A type that can bind itself to a parameter of a prepared statement.
///
/// All ``DatabaseValueConvertible`` types are statement bindings.
public protocol StatementBinding {
    /// Binds the value to the parameter at `index` (1-based) and returns the
    /// SQLite result code. Wraps the `sqlite3_bind_*` functions.
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt
}
