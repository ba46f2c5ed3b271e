/// The database of the size curve (`cost-curves size`, issue 51), identical
/// for C, Strata and GRDB: table `item`, rows of about one kilobyte (four to
/// a 4 KiB page) with a unique secondary key, so that the file's size
/// follows its row count.
public enum SizeFixture {
    /// The bytes of each row's random blob.
    public static let payloadBytes = 900

    /// The rows of a file of about `megabytes` megabytes.
    public static func rowCount(megabytes: Int) -> Int { megabytes * 1_000 }

    /// The SQL that fills an empty file with `rowCount` rows, builds the
    /// secondary index after them (a sort, faster than one random insert per
    /// row), and leaves the file in WAL mode, as a server's pool has it.
    public static func buildSQL(rowCount: Int) -> [String] {
        [
            "PRAGMA journal_mode = OFF",
            "PRAGMA cache_size = -262144",
            "CREATE TABLE item (id INTEGER PRIMARY KEY, key INTEGER NOT NULL, value INTEGER NOT NULL, payload BLOB NOT NULL)",
            """
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(rowCount))
            INSERT INTO item SELECT x, (x * 2654435761) % 4294967296, x, randomblob(\(payloadBytes)) FROM c
            """,
            "CREATE UNIQUE INDEX item_key ON item(key)",
            "PRAGMA journal_mode = WAL",
        ]
    }

    /// A point query by primary key: one argument, the id.
    public static let primaryKeySQL = "SELECT id, key, value, payload FROM item WHERE id = ?"

    /// A point query through the secondary index: one argument, the key.
    public static let secondaryKeySQL = "SELECT id, key, value, payload FROM item WHERE key = ?"

    /// The secondary key of the row `id` (a permutation of the ids: the
    /// multiplier is odd, so no two ids below 2^32 share a key).
    public static func key(forID id: Int) -> Int { (id &* 2_654_435_761) % 4_294_967_296 }
}
