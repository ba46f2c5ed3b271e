// The SQLite features a connection may use (`SQLiteFeature`): checked once
// per connection, then one bit test per use.

/// The SQLite features a connection found available: filled on the first
/// check, all features at once, from the facts the connection believes.
struct SQLiteFeatureCache {
    /// One bit per available feature (`SQLiteFeature.bit`), once computed.
    var availableBits: UInt32 = 0
    /// Whether `availableBits` is computed.
    var isComputed = false
    /// Less than the linked library, when a test lowered it; nil otherwise.
    var loweredFacts: SQLiteLibrary.Facts?

    /// The facts this connection believes.
    var facts: SQLiteLibrary.Facts { loweredFacts ?? SQLiteLibrary.facts }
}

extension Database {
    /// The linked SQLite library: its version, its compile options, and
    /// which ``SQLiteFeature``s it has (and why not, for those it lacks).
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     print(db.linkedSQLite)
    ///     // SQLite 3.40.1 (3040001)
    ///     // Features:
    ///     //   yes  UPSERT (ON CONFLICT DO UPDATE)  SQLite 3.24.0
    ///     //   ...
    /// }
    /// ```
    public var linkedSQLite: LinkedSQLite {
        LinkedSQLite(sqliteFeatureCache.facts)
    }

    /// Throws a ``DatabaseError`` (`SQLITE_MISUSE`) that names the feature,
    /// what it needs and the linked SQLite, when the feature is missing.
    ///
    /// Strata's own API checks its features itself: call this before your
    /// own SQL uses one, such as a window function. The first check of a
    /// connection reads all features; the next ones test a bit.
    public func requireSQLiteFeature(_ feature: SQLiteFeature) throws {
        if sqliteFeatureCache.availableBits & feature.bit == 0 {
            try sqliteFeatureIsMissing(feature)
        }
    }

    /// Whether the feature is available on this connection (cached).
    func isSQLiteFeatureAvailable(_ feature: SQLiteFeature) -> Bool {
        if sqliteFeatureCache.availableBits & feature.bit != 0 { return true }
        computeSQLiteFeaturesIfNeeded()
        return sqliteFeatureCache.availableBits & feature.bit != 0
    }

    /// The slow path of `requireSQLiteFeature`: fills the cache on first
    /// use, then throws unless the feature is available.
    private func sqliteFeatureIsMissing(_ feature: SQLiteFeature) throws {
        computeSQLiteFeaturesIfNeeded()
        if sqliteFeatureCache.availableBits & feature.bit != 0 { return }
        let reason: String
        switch feature.availability(in: sqliteFeatureCache.facts) {
        case .available: return
        case .unavailable(let why): reason = why
        }
        throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(feature) is not available: it \(reason)")
    }

    private func computeSQLiteFeaturesIfNeeded() {
        if sqliteFeatureCache.isComputed { return }
        let facts = sqliteFeatureCache.facts
        var bits: UInt32 = 0
        for feature in SQLiteFeature.allCases where feature.availability(in: facts) == .available {
            bits |= feature.bit
        }
        sqliteFeatureCache.availableBits = bits
        sqliteFeatureCache.isComputed = true
    }

    /// For tests: makes this connection, and only it, believe that SQLite is
    /// older (`version`, such as "3.30.0") or lacks compile options (without
    /// the `SQLITE_` prefix). Never raises: a version above the linked one
    /// is ignored. Strata's gated API then throws as it would on such a
    /// library, and pre-update hooks installed afterwards are left out.
    package func lowerSQLiteForTesting(version: String? = nil, removingCompileOptions options: Set<String> = []) {
        var facts = sqliteFeatureCache.facts
        if let version, let number = SQLiteLibrary.versionNumber(version), number < facts.versionNumber {
            facts.versionNumber = number
            facts.version = version
        }
        let kept = facts.compileOptions.filter { !options.contains(String($0.prefix { $0 != "=" })) }
        sqliteFeatureCache.loweredFacts = SQLiteLibrary.Facts(
            versionNumber: facts.versionNumber, version: facts.version, compileOptions: kept)
        sqliteFeatureCache.availableBits = 0
        sqliteFeatureCache.isComputed = false
    }
}
