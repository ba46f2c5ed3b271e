/// The SQL that fills the databases of every workload. The benchmark suite,
/// `strata-profile`, `compare` and `pool-throughput` all use it, so that C,
/// Strata and GRDB always read and write the same tables and the same values.
public enum Fixture {
    public static let readRowCount = 200_000
    public static let dateCount = 100_000
    public static let playerCount = 1_000
    /// The read accesses of the `keyed-reads-*` workloads, each a fetch of
    /// a player by primary key.
    public static let keyedReadCount = 100_000
    public static let insertRowCount = 50_000

    /// Table `t`: `readRowCount` rows of 10 Int columns (x, x+1, ..., x+9).
    public static let rowsSetup: [String] = rowsSetup(rowCount: readRowCount)

    /// Table `t` with `rowCount` rows: the smaller tables of `bench-check`.
    public static func rowsSetup(rowCount: Int) -> [String] {
        [
            "CREATE TABLE t (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)",
            """
            WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < \(rowCount - 1))
            INSERT INTO t SELECT x, x+1, x+2, x+3, x+4, x+5, x+6, x+7, x+8, x+9 FROM c
            """,
        ]
    }

    /// Table `player`: `playerCount` rows, the target of the query interface request.
    public static let playerSetup: [String] = [
        "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)",
        """
        WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < \(playerCount - 1))
        INSERT INTO player (name, score) SELECT 'player' || ((x * 7919) % 1000), (x * 37) % 1000 FROM c
        """,
    ]

    /// Table `dates`: `dateCount` dates as "YYYY-MM-DD HH:MM:SS.SSS" text,
    /// the format GRDB and Strata store dates in.
    public static let datesSetup: [String] = datesSetup(dateCount: dateCount)

    /// Table `dates` with `dateCount` dates: the smaller table of `bench-check`.
    public static func datesSetup(dateCount: Int) -> [String] {
        [
            "CREATE TABLE dates (d TEXT)",
            """
            WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < \(dateCount - 1))
            INSERT INTO dates SELECT strftime('%Y-%m-%d %H:%M:%f', 1600000000 + x * 37.123, 'unixepoch') FROM c
            """,
        ]
    }

    /// Every table the read workloads use.
    public static let readSetup = rowsSetup + playerSetup + datesSetup

    /// The empty table `t` the insert workloads fill.
    public static let insertSetup: [String] = [
        "CREATE TABLE t (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)"
    ]

    /// The insert workloads that record changesets (issue 33): table `t`
    /// with a primary key, which the session extension needs.
    public static let insertSetupWithPrimaryKey: [String] = [
        "CREATE TABLE t (i0 INTEGER PRIMARY KEY, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)"
    ]

    /// The pool workload: table `t` to scan, and table `batch` the writer fills.
    public static let poolSetup = rowsSetup + ["CREATE TABLE batch (a INTEGER, b TEXT)"]

    /// Scans of table `t` per reader thread in the pool workload.
    public static let poolScans = 5
}

/// What the observations of `observation-throughput` observe, identical for
/// Strata and GRDB.
public enum ObservationShape: String, Sendable {
    /// Observations of a constant region
    /// (`ValueObservation.trackingConstantRegion`) that fetch an aggregate
    /// of a 10,000-row table.
    case constantAggregate = "constant"
    /// An observation of GRDB's default kind (`ValueObservation.tracking`,
    /// whose region may change) that counts a 50,000-row table: the shape
    /// of a server that shows a live count while it takes writes.
    case trackingCount = "tracking"
    /// An observation of GRDB's default kind that fetches the latest row's
    /// id, a lookup whatever the table's size: the shape of a screen that
    /// shows the newest item (the observations curve of `cost-curves`).
    case latestRow = "latest"

    /// The rows of the `item` table before the writes.
    public var initialRowCount: Int {
        switch self {
        case .constantAggregate, .latestRow: 10_000
        case .trackingCount: 50_000
        }
    }

    /// Whether the observations track a region that may change
    /// (`ValueObservation.tracking`), rather than a constant one.
    public var tracksChangingRegion: Bool { self != .constantAggregate }

    /// The SQL that fills `item`.
    public var setupSQL: [String] {
        [
            "CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)",
            """
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(initialRowCount))
            INSERT INTO item (value) SELECT x FROM c
            """,
        ]
    }

    /// The SQL that each observation fetches: one row of integers.
    public var observedSQL: String {
        switch self {
        case .constantAggregate: "SELECT COUNT(*), SUM(value), MAX(value) FROM item WHERE id > 0"
        case .trackingCount: "SELECT COUNT(*) FROM item"
        case .latestRow: "SELECT MAX(id) FROM item"
        }
    }
}
