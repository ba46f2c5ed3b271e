/// A type-erased ``DatabaseRegionConvertible``: a region, or a closure that
/// computes one from the database.
///
/// ```swift
/// let region = AnyDatabaseRegionConvertible { db in
///     try Player.filter(Column("score") > 1000).databaseRegion(db)
/// }
/// let observation = ValueObservation.tracking(regions: [region]) { db in ... }
/// ```
public struct AnyDatabaseRegionConvertible: DatabaseRegionConvertible {
    private let region: @Sendable (Database) throws -> DatabaseRegion

    /// A region computed by the closure, each time it is asked for.
    public init(_ region: @escaping @Sendable (Database) throws -> DatabaseRegion) {
        self.region = region
    }

    /// Wraps another value: its region is asked for each time this one is.
    public init(_ region: some DatabaseRegionConvertible) {
        self.region = { try region.databaseRegion($0) }
    }

    /// The region, computed from the database.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}
