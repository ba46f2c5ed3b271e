extension CommonTableExpression {
    /// Returns an association from this common table expression to another
    /// one, without condition: every row of the other is joined.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_sqlAssociation: .join(origin: tableName, destination: _SQLAssociation.relation(cte)))
    }

    /// Returns an association from this common table expression to another
    /// one, joined on a condition.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (TableAlias<RowDecoder>, TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(
            _sqlAssociation: .join(origin: tableName, destination: _SQLAssociation.relation(cte), on: condition))
    }

    /// Returns an association from this common table expression to a record
    /// type, without condition.
    public func association<Destination: TableRecord>(
        to destination: Destination.Type
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(
            _sqlAssociation: .join(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: Destination.databaseTableName)))
    }

    /// Returns an association from this common table expression to a record
    /// type, joined on a condition.
    ///
    /// ```swift
    /// let association = cte.association(to: Player.self) { cte, player in
    ///     cte[Column("playerId")] == player[Column("id")]
    /// }
    /// ```
    public func association<Destination: TableRecord>(
        to destination: Destination.Type,
        on condition: @escaping @Sendable (TableAlias<RowDecoder>, TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(
            _sqlAssociation: .join(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: Destination.databaseTableName),
                on: condition))
    }

    /// Returns an association from this common table expression to a table,
    /// without condition.
    public func association<Destination>(
        to destination: Table<Destination>
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(
            _sqlAssociation: .join(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: destination.tableName)))
    }

    /// Returns an association from this common table expression to a table,
    /// joined on a condition.
    public func association<Destination>(
        to destination: Table<Destination>,
        on condition: @escaping @Sendable (TableAlias<RowDecoder>, TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(
            _sqlAssociation: .join(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: destination.tableName),
                on: condition))
    }
}
