extension Database {
    /// The actions of foreign keys (`ON DELETE`, `ON UPDATE`).
    public enum ForeignKeyAction: String, Sendable {
        /// `CASCADE`.
        case cascade = "CASCADE"
        /// `RESTRICT`.
        case restrict = "RESTRICT"
        /// `SET NULL`.
        case setNull = "SET NULL"
        /// `SET DEFAULT`.
        case setDefault = "SET DEFAULT"
    }

    /// The conflict resolution algorithms of SQLite (`ON CONFLICT`, `INSERT OR ...`).
    public enum ConflictResolution: String, Sendable {
        /// `ROLLBACK`: aborts the statement and rolls back the transaction.
        case rollback = "ROLLBACK"
        /// `ABORT` (the default): aborts the statement, keeps the transaction.
        case abort = "ABORT"
        /// `FAIL`: stops the statement, keeping its previous changes.
        case fail = "FAIL"
        /// `IGNORE`: skips the conflicting row.
        case ignore = "IGNORE"
        /// `REPLACE`: deletes the conflicting rows, then inserts.
        case replace = "REPLACE"
    }

    /// A storage class of SQLite: the type of a value, used by STRICT tables.
    public struct StorageClass: RawRepresentable, Hashable, Sendable {
        /// The name of the storage class.
        public let rawValue: String

        /// Creates a storage class.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }

    /// The declared type of a column.
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        /// The declared type, as written in SQL.
        public let rawValue: String

        /// Creates a column type.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }

    /// The checkpoint modes of WAL databases. See `sqlite3_wal_checkpoint_v2`.
    public enum CheckpointMode: CInt, Sendable {
        /// `SQLITE_CHECKPOINT_PASSIVE`: checkpoints without waiting.
        case passive = 0
        /// `SQLITE_CHECKPOINT_FULL`: waits for writers, then checkpoints.
        case full = 1
        /// `SQLITE_CHECKPOINT_RESTART`: like full, then waits for readers.
        case restart = 2
        /// `SQLITE_CHECKPOINT_TRUNCATE`: like restart, then truncates the WAL file.
        case truncate = 3
    }

    /// Runs a WAL checkpoint. Wraps `sqlite3_wal_checkpoint_v2`.
    ///
    /// - Returns: the number of frames in the WAL, and the number checkpointed.
    @discardableResult
    public func checkpoint(_ kind: CheckpointMode = .passive, on dbName: String? = "main") throws -> (
        walFrameCount: Int, checkpointedFrameCount: Int
    ) {
        try checkNotClosed()
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        let code = sqlite3_wal_checkpoint_v2(
            sqliteConnection, dbName, kind.rawValue, &walFrameCount, &checkpointedFrameCount)
        if let instrument, dbName == "main" {
            instrument.walCheckpointDidRun(
                self, mode: kind, code: code, walFrameCount: Int(walFrameCount),
                checkpointedFrameCount: Int(checkpointedFrameCount))
        }
        guard code == SQLITE_OK else {
            throw DatabaseError.lastError(of: sqliteConnection, resultCode: code)
        }
        return (Int(walFrameCount), Int(checkpointedFrameCount))
    }
}

extension Database.StorageClass {
    /// BLOB: bytes, stored as given.
    public static let blob = Self(rawValue: "BLOB")
    /// INTEGER: signed integers.
    public static let integer = Self(rawValue: "INTEGER")
    /// REAL: floating-point numbers.
    public static let real = Self(rawValue: "REAL")
    /// TEXT: strings.
    public static let text = Self(rawValue: "TEXT")
}

extension Database.ColumnType {
    // Types named after a storage class.

    /// ANY (for STRICT tables).
    public static let any = Self(rawValue: "ANY")
    /// BLOB.
    public static let blob = Self(rawValue: "BLOB")
    /// INTEGER.
    public static let integer = Self(rawValue: "INTEGER")
    /// REAL.
    public static let real = Self(rawValue: "REAL")
    /// TEXT.
    public static let text = Self(rawValue: "TEXT")

    // Other common declared types, with their affinity.

    /// BOOLEAN (numeric affinity).
    public static let boolean = Self(rawValue: "BOOLEAN")
    /// DATE (numeric affinity).
    public static let date = Self(rawValue: "DATE")
    /// DATETIME (numeric affinity).
    public static let datetime = Self(rawValue: "DATETIME")
    /// DOUBLE (real affinity).
    public static let double = Self(rawValue: "DOUBLE")
    /// NUMERIC.
    public static let numeric = Self(rawValue: "NUMERIC")

    // JSON columns.

    /// TEXT, for JSON strings.
    public static let jsonText = Self(rawValue: "TEXT")
    /// BLOB, for JSONB values.
    public static let jsonb = Self(rawValue: "BLOB")
}
