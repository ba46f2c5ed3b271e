#if SQLKit
    import SQLKit
    import StrataSQLite

    /// The version of the SQLite library of the process, as SQLKit
    /// compares versions.
    public struct StrataSQLiteVersion: SQLDatabaseReportedVersion {
        /// The version of the library the process runs with.
        public static var runtime: StrataSQLiteVersion {
            StrataSQLiteVersion(intValue: Int(sqlite3_libversion_number()))
        }

        /// `major * 1_000_000 + minor * 1_000 + patch`, as
        /// `SQLITE_VERSION_NUMBER`.
        public let intValue: Int

        /// "major.minor.patch".
        public var stringValue: String { "\(intValue / 1_000_000).\(intValue / 1_000 % 1_000).\(intValue % 1_000)" }

        /// The version `intValue`, as `SQLITE_VERSION_NUMBER` writes it.
        public init(intValue: Int) { self.intValue = intValue }

        /// Whether `otherVersion` is this SQLite version.
        public func isEqual(to otherVersion: any SQLDatabaseReportedVersion) -> Bool {
            (otherVersion as? StrataSQLiteVersion)?.intValue == intValue
        }

        /// Whether this version comes before `otherVersion`.
        public func isOlder(than otherVersion: any SQLDatabaseReportedVersion) -> Bool {
            guard let other = otherVersion as? StrataSQLiteVersion else { return false }
            return intValue < other.intValue
        }
    }
#endif
