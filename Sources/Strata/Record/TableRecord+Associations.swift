extension TableRecord {
    /// Returns a to-one association to the record referenced by a foreign
    /// key of this table. The foreign key comes from the database schema,
    /// or from `foreignKey`. The key defaults to the destination table name.
    ///
    /// ```swift
    /// extension Book: TableRecord {
    ///     static let author = belongsTo(Author.self)
    /// }
    /// ```
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<Self, Destination> {
        BelongsToAssociation(
            _sqlAssociation: .belongsTo(
                origin: databaseTableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: Destination.databaseTableName),
                key: key, foreignKey: foreignKey))
    }

    /// Returns a to-one association to the row of a table referenced by a
    /// foreign key of this table.
    public static func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<Self, Destination> {
        BelongsToAssociation(
            _sqlAssociation: .belongsTo(
                origin: databaseTableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: destination.tableName),
                key: key, foreignKey: foreignKey))
    }

    /// Returns a to-many association to the records whose foreign key
    /// references this table. The key defaults to the plural destination
    /// table name (`books`).
    ///
    /// ```swift
    /// extension Author: TableRecord {
    ///     static let books = hasMany(Book.self)
    /// }
    /// ```
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<Self, Destination> {
        HasManyAssociation(
            _sqlAssociation: .has(
                origin: databaseTableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: Destination.databaseTableName),
                key: key, foreignKey: foreignKey, toMany: true))
    }

    /// Returns a to-many association to the rows of a table whose foreign
    /// key references this table.
    public static func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<Self, Destination> {
        HasManyAssociation(
            _sqlAssociation: .has(
                origin: databaseTableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: destination.tableName),
                key: key, foreignKey: foreignKey, toMany: true))
    }

    /// Returns a to-one association to the record whose foreign key
    /// references this table. The key defaults to the destination table name.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<Self, Destination> {
        HasOneAssociation(
            _sqlAssociation: .has(
                origin: databaseTableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: Destination.databaseTableName),
                key: key, foreignKey: foreignKey, toMany: false))
    }

    /// Returns a to-one association to the row of a table whose foreign key
    /// references this table.
    public static func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<Self, Destination> {
        HasOneAssociation(
            _sqlAssociation: .has(
                origin: databaseTableName,
                destination: _SQLAssociation.relation(Destination.self, tableName: destination.tableName),
                key: key, foreignKey: foreignKey, toMany: false))
    }

    /// Returns a to-many association through a pivot association:
    /// `hasMany(Person.self, through: citizenships, using: Citizenship.person)`.
    public static func hasMany<Pivot, Target>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasManyThroughAssociation<Self, Target.RowDecoder>
    where
        Pivot: Association, Target: Association, Self == Pivot.OriginRowDecoder,
        Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasManyThroughAssociation(
            _sqlAssociation: _SQLAssociation(
                through: pivot._sqlAssociation, target: target._sqlAssociation, key: key, isToMany: true))
    }

    /// Returns a to-one association through a to-one pivot association:
    /// `hasOne(Country.self, through: author, using: Author.country)`.
    public static func hasOne<Pivot, Target>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasOneThroughAssociation<Self, Target.RowDecoder>
    where
        Pivot: AssociationToOne, Target: AssociationToOne, Self == Pivot.OriginRowDecoder,
        Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasOneThroughAssociation(
            _sqlAssociation: _SQLAssociation(
                through: pivot._sqlAssociation, target: target._sqlAssociation, key: key, isToMany: false))
    }

    /// Returns an association to a common table expression, without condition:
    /// every row of the expression is joined.
    public static func association<Destination>(
        to cte: CommonTableExpression<Destination>
    ) -> JoinAssociation<Self, Destination> {
        JoinAssociation(_sqlAssociation: .join(origin: databaseTableName, destination: _SQLAssociation.relation(cte)))
    }

    /// Returns an association to a common table expression, joined on a
    /// condition between the two tables.
    public static func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (TableAlias<Self>, TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<Self, Destination> {
        JoinAssociation(
            _sqlAssociation: .join(origin: databaseTableName, destination: _SQLAssociation.relation(cte), on: condition)
        )
    }

    /// A request of all records with association aggregates: `Author.annotated(with: Author.books.count)`.
    public static func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// A request of all records with association aggregates.
    public static func annotated(with aggregates: [AssociationAggregate<Self>]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// A request of the records that pass an aggregate condition:
    /// `Team.having(Team.players.count >= 5)`.
    public static func having(_ predicate: AssociationAggregate<Self>) -> QueryInterfaceRequest<Self> {
        all().having(predicate)
    }

    /// A request of all records, with all their associated records (`including(all:)`).
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self {
        all().including(all: association)
    }

    /// A request of all records, with their associated record if it exists (`LEFT JOIN`).
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self {
        all().including(optional: association)
    }

    /// A request of the records that have an associated record, with it (`JOIN`).
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self {
        all().including(required: association)
    }

    /// A request of all records, joined to their associated record if it exists,
    /// without selecting it (`LEFT JOIN`).
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self {
        all().joining(optional: association)
    }

    /// A request of the records that have an associated record, without
    /// selecting it (`JOIN`).
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self {
        all().joining(required: association)
    }

    /// A request of all records, with the associated columns appended (`LEFT JOIN`).
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self {
        all().annotated(withOptional: association)
    }

    /// A request of the records that have an associated record, with the
    /// associated columns appended (`JOIN`).
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self {
        all().annotated(withRequired: association)
    }
}
