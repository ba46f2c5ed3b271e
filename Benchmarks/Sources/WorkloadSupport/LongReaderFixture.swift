/// The table of the WAL curve (`cost-curves wal`, issue 51), identical for
/// C, Strata and GRDB: rows of about 200 bytes, one per commit.
public enum LongReaderFixture {
    /// The SQL that creates the table in an empty file.
    public static let setupSQL = [
        "CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL, payload BLOB NOT NULL)"
    ]

    /// One row; one argument, its value.
    public static let insertSQL = "INSERT INTO item (value, payload) VALUES (?, zeroblob(200))"

    /// What the long reader reads when its snapshot starts.
    public static let snapshotSQL = "SELECT COUNT(*) FROM item"
}
