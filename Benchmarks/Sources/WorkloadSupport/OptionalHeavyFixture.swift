/// The table of the optional-heavy record workloads (issue 46): the shape of
/// an app's synced rows, most of whose columns may be NULL.
public enum OptionalHeavyFixture {
    /// The rows of table `entry`.
    public static let rowCount = 16_800
    /// How many times a workload fetches the whole table.
    public static let fetchCount = 20

    /// The 14 columns, in the order the records read them by index.
    public static let selectSQL = """
        SELECT id, parentId, ownerId, title, subtitle, author, category, status, note, tag, \
        createdAt, updatedAt, deletedAt, amount FROM entry
        """

    /// Table `entry` with `rowCount` rows: an integer key, two optional
    /// integers, ten optional texts (three of them dates), and an amount
    /// that is REAL for some rows, INTEGER for others, and sometimes NULL.
    public static func setup(rowCount: Int = rowCount) -> [String] {
        [
            """
            CREATE TABLE entry (
              id INTEGER PRIMARY KEY, parentId INTEGER, ownerId INTEGER,
              title TEXT, subtitle TEXT, author TEXT, category TEXT, status TEXT, note TEXT, tag TEXT,
              createdAt TEXT, updatedAt TEXT, deletedAt TEXT, amount NUMERIC)
            """,
            """
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(rowCount))
            INSERT INTO entry SELECT
              x,
              CASE WHEN x % 4 = 0 THEN NULL ELSE x / 4 END,
              CASE WHEN x % 3 = 0 THEN NULL ELSE x % 97 END,
              'Title of entry ' || x,
              CASE WHEN x % 2 = 0 THEN NULL ELSE 'A subtitle ' || x END,
              'author' || (x % 50),
              CASE WHEN x % 5 = 0 THEN NULL ELSE 'category' || (x % 12) END,
              CASE x % 3 WHEN 0 THEN 'draft' WHEN 1 THEN 'published' ELSE NULL END,
              CASE WHEN x % 7 = 0 THEN 'Some longer note about entry ' || x ELSE NULL END,
              CASE WHEN x % 6 = 0 THEN NULL ELSE 'tag' || (x % 30) END,
              strftime('%Y-%m-%d %H:%M:%f', 1600000000 + x * 61.25, 'unixepoch'),
              CASE WHEN x % 2 = 0 THEN NULL ELSE strftime('%Y-%m-%d %H:%M:%f', 1600500000 + x * 13.5, 'unixepoch') END,
              CASE WHEN x % 10 = 0 THEN strftime('%Y-%m-%d %H:%M:%f', 1601000000 + x, 'unixepoch') ELSE NULL END,
              CASE x % 4 WHEN 0 THEN NULL WHEN 1 THEN x * 100 ELSE x + 0.25 END
            FROM c
            """,
        ]
    }
}
