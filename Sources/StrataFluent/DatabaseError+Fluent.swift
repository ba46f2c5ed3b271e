#if Fluent
    import FluentKit
    import Strata

    /// Strata's errors answer Fluent's questions about them.
    extension Strata.DatabaseError: FluentKit.DatabaseError {
        /// SQLite's generic error (`SQLITE_ERROR`: bad SQL, an unknown table
        /// or column) and a schema that changed under a statement.
        public var isSyntaxError: Bool {
            resultCode == .SQLITE_ERROR || resultCode == .SQLITE_SCHEMA
        }

        /// A violated constraint: unique, not null, check, foreign key...
        public var isConstraintFailure: Bool {
            resultCode == .SQLITE_CONSTRAINT
        }

        /// A closed or unopenable connection (`SQLITE_MISUSE`,
        /// `SQLITE_CANTOPEN`).
        public var isConnectionClosed: Bool {
            resultCode == .SQLITE_MISUSE || resultCode == .SQLITE_CANTOPEN
        }
    }
#endif
