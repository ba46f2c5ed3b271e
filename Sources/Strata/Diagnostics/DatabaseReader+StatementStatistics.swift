extension DatabaseReader {
    /// The figures of each statement the database ran since its
    /// ``Configuration/statementStatistics`` collector was created or
    /// reset, the longest in total first; empty when the configuration has
    /// no collector. Strata's own (GRDB has none).
    ///
    /// ```swift
    /// for statement in dbPool.statementStatistics().prefix(5) {
    ///     print(statement)
    /// }
    /// ```
    public func statementStatistics() -> [StatementStatistics] {
        configuration.statementStatistics?.snapshot() ?? []
    }

    /// Starts the statement statistics over (see ``statementStatistics()``);
    /// does nothing when the configuration has no collector.
    public func resetStatementStatistics() {
        configuration.statementStatistics?.reset()
    }
}
