extension Database {
    /// Adds a region to the region tracked by the value observation that
    /// is fetching, if any: the observation is notified of changes to it
    /// even if the fetch did not read it. Does nothing otherwise.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try db.registerAccess(to: Table("player"))
    ///     return try fetchSomething(db)
    /// }
    /// ```
    public func registerAccess(to region: @autoclosure () -> some DatabaseRegionConvertible) throws {
        guard recordedRegion != nil else { return }
        recordedRegion!.formUnion(try region().databaseRegion(self))
    }

    /// Runs `body` and returns the region read by its statements.
    func recordingSelectedRegion<T>(_ body: () throws -> T) throws -> (T, DatabaseRegion) {
        let previous = recordedRegion
        recordedRegion = DatabaseRegion()
        defer {
            if let previous, let recorded = recordedRegion {
                recordedRegion = previous.union(recorded)
            } else {
                recordedRegion = previous
            }
        }
        let result = try body()
        return (result, recordedRegion ?? DatabaseRegion())
    }
}
