extension Table {
    /// Returns a to-one association to the record referenced by a foreign
    /// key of this table. The foreign key comes from the database schema,
    /// or from `foreignKey`. The key defaults to the destination table name.
    ///
    /// ```swift
    /// let author = Table("book").belongsTo(Table("author"))
    /// ```
    public func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<RowDecoder, Destination> {
        BelongsToAssociation(
            _sqlAssociation: .belongsTo(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: Destination.databaseTableName),
                key: key, foreignKey: foreignKey))
    }

    /// Returns a to-one association to the row of a table referenced by a
    /// foreign key of this table.
    public func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<RowDecoder, Destination> {
        BelongsToAssociation(
            _sqlAssociation: .belongsTo(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: destination.tableName),
                key: key, foreignKey: foreignKey))
    }

    /// Returns a to-many association to the records whose foreign key
    /// references this table. The key defaults to the plural destination
    /// table name (`books`).
    ///
    /// ```swift
    /// let books = Table("author").hasMany(Table("book"))
    /// ```
    public func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<RowDecoder, Destination> {
        HasManyAssociation(
            _sqlAssociation: .has(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: Destination.databaseTableName),
                key: key, foreignKey: foreignKey, toMany: true))
    }

    /// Returns a to-many association to the rows of a table whose foreign
    /// key references this table.
    public func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<RowDecoder, Destination> {
        HasManyAssociation(
            _sqlAssociation: .has(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: destination.tableName),
                key: key, foreignKey: foreignKey, toMany: true))
    }

    /// Returns a to-one association to the record whose foreign key
    /// references this table. The key defaults to the destination table name.
    public func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<RowDecoder, Destination> {
        HasOneAssociation(
            _sqlAssociation: .has(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: Destination.databaseTableName),
                key: key, foreignKey: foreignKey, toMany: false))
    }

    /// Returns a to-one association to the row of a table whose foreign key
    /// references this table.
    public func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<RowDecoder, Destination> {
        HasOneAssociation(
            _sqlAssociation: .has(
                origin: tableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: destination.tableName),
                key: key, foreignKey: foreignKey, toMany: false))
    }

    /// Returns a to-many association through a pivot association:
    /// `hasMany(Person.self, through: citizenships, using: Citizenship.person)`.
    public func hasMany<Pivot, Target>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasManyThroughAssociation<RowDecoder, Target.RowDecoder>
    where
        Pivot: Association, Target: Association, RowDecoder == Pivot.OriginRowDecoder,
        Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasManyThroughAssociation(
            _sqlAssociation: _SQLAssociation(
                through: pivot._sqlAssociation, target: target._sqlAssociation, key: key, isToMany: true))
    }

    /// Returns a to-one association through a to-one pivot association:
    /// `hasOne(Country.self, through: author, using: Author.country)`.
    public func hasOne<Pivot, Target>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasOneThroughAssociation<RowDecoder, Target.RowDecoder>
    where
        Pivot: AssociationToOne, Target: AssociationToOne, RowDecoder == Pivot.OriginRowDecoder,
        Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasOneThroughAssociation(
            _sqlAssociation: _SQLAssociation(
                through: pivot._sqlAssociation, target: target._sqlAssociation, key: key, isToMany: false))
    }

    /// Returns an association to a common table expression, without condition:
    /// every row of the expression is joined.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_sqlAssociation: .join(origin: tableName, destination: _SQLAssociation.relation(cte)))
    }

    /// Returns an association to a common table expression, joined on a
    /// condition between the two tables.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (TableAlias<RowDecoder>, TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(
            _sqlAssociation: .join(origin: tableName, destination: _SQLAssociation.relation(cte), on: condition))
    }

    /// A request of all rows with association aggregates: `Table<Author>("author").annotated(with: Author.books.count)`.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// A request of all rows with association aggregates.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// A request of the rows that pass an aggregate condition:
    /// `Table<Team>("team").having(Team.players.count >= 5)`.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().having(predicate)
    }

    /// A request of all rows, with all their associated records (`including(all:)`).
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().including(all: association)
    }

    /// A request of all rows, with their associated record if it exists (`LEFT JOIN`).
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().including(optional: association)
    }

    /// A request of the rows that have an associated record, with it (`JOIN`).
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().including(required: association)
    }

    /// A request of all rows, joined to their associated record if it exists,
    /// without selecting it (`LEFT JOIN`).
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().joining(optional: association)
    }

    /// A request of the rows that have an associated record, without
    /// selecting it (`JOIN`).
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().joining(required: association)
    }

    /// A request of all rows, with the associated columns appended (`LEFT JOIN`).
    public func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().annotated(withOptional: association)
    }

    /// A request of the rows that have an associated record, with the
    /// associated columns appended (`JOIN`).
    public func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder {
        all().annotated(withRequired: association)
    }
}
