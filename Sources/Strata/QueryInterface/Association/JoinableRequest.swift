/// A request that can join, include and prefetch associated rows.
///
/// ```swift
/// // SELECT "book".*, "author".* FROM "book"
/// // JOIN "author" ON "author"."id" = "book"."authorId"
/// let request = Book.including(required: Book.author)
/// ```
public protocol JoinableRequest<RowDecoder>: TypedRequest {
    /// Adds a joined table (not for direct use).
    func _joining(_ join: _SQLJoinBox) -> Self

    /// Adds prefetched rows (not for direct use).
    func _prefetching(_ prefetch: _SQLPrefetchBox) -> Self

    /// Adds an aggregate to the selection (not for direct use).
    func _annotating(_ aggregate: _SQLAggregateBox) -> Self

    /// Filters groups with an aggregate (not for direct use).
    func _having(_ aggregate: _SQLAggregateBox) -> Self
}

/// A joined table, as given to requests (not for direct use).
public struct _SQLJoinBox: Sendable {
    let join: SQLJoin
}

/// Prefetched rows, as given to requests (not for direct use).
public struct _SQLPrefetchBox: Sendable {
    let prefetch: SQLPrefetch
}

extension JoinableRequest {
    private func joining(_ association: some Association, kind: SQLJoin.Kind, mode: SQLJoin.Mode) -> Self {
        _joining(_SQLJoinBox(join: association._sqlAssociation.join(kind: kind, mode: mode)))
    }

    /// Returns a request that fetches all associated rows of each fetched
    /// row, with a second query, available under the association key.
    ///
    /// ```swift
    /// struct LiteraryCareer: Decodable, FetchableRecord {
    ///     var author: Author
    ///     var books: [Book]
    /// }
    /// let request = Author.including(all: Author.books).asRequest(of: LiteraryCareer.self)
    /// ```
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        let sqlAssociation = association._sqlAssociation
        return _prefetching(
            _SQLPrefetchBox(prefetch: SQLPrefetch(key: sqlAssociation.keyName, steps: sqlAssociation.steps)))
    }

    /// Returns a request that joins the associated table with `LEFT JOIN`,
    /// and selects its columns in a row scope named by the association key
    /// (NULL columns when there is no associated row).
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joining(association, kind: .optional, mode: .scoped)
    }

    /// Returns a request that joins the associated table with `JOIN` (only
    /// rows that have an associated row), and selects its columns in a row
    /// scope named by the association key.
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joining(association, kind: .required, mode: .scoped)
    }

    /// Returns a request that joins the associated table with `LEFT JOIN`,
    /// without selecting its columns.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joining(association, kind: .optional, mode: .none)
    }

    /// Returns a request that joins the associated table with `JOIN`, without
    /// selecting its columns: only rows that have an associated row are fetched.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joining(association, kind: .required, mode: .none)
    }
}

extension JoinableRequest where Self: SelectionRequest {
    /// Joins the associated table, and appends its selected columns, as
    /// they are now, to the selection of the request: after the columns
    /// already selected, and before the columns of the tables included
    /// later. No row scope is created.
    private func annotated(_ association: some Association, kind: SQLJoin.Kind) -> Self {
        let (sqlAssociation, alias) = association._sqlAssociation.withDestinationAlias()
        let destination = sqlAssociation.destination
        return _joining(_SQLJoinBox(join: sqlAssociation.join(kind: kind, mode: .none)))
            .annotatedWhenConnected { db in
                try destination.resolvedSelection(db).flatMap { selection in
                    try SQLQuery.qualifiedSelection(selection, alias: alias, of: destination, db)
                }
            }
    }

    /// Returns a request that joins the associated table with `LEFT JOIN`,
    /// and appends its selected columns to the fetched rows (no scope).
    ///
    /// ```swift
    /// // SELECT "book".*, "author"."name" FROM "book"
    /// // LEFT JOIN "author" ON "author"."id" = "book"."authorId"
    /// let request = Book.annotated(withOptional: Book.author.select(Column("name")))
    /// ```
    public func annotated<A: Association>(withOptional association: A) -> Self
    where A.OriginRowDecoder == RowDecoder {
        annotated(association, kind: .optional)
    }

    /// Returns a request that joins the associated table with `JOIN`, and
    /// appends its selected columns to the fetched rows (no scope).
    public func annotated<A: Association>(withRequired association: A) -> Self
    where A.OriginRowDecoder == RowDecoder {
        annotated(association, kind: .required)
    }
}

extension DerivableRequest {
    /// Returns a request whose selection is extended with association
    /// aggregates: `Team.all().annotated(with: Team.players.count)`.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        annotated(with: aggregates)
    }

    /// Returns a request whose selection is extended with association aggregates.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        aggregates.reduce(self) { $0._annotating($1.box) }
    }

    /// Returns a request filtered by an association aggregate:
    /// `Team.all().having(Team.players.count >= 5)`.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> Self {
        _having(predicate.box)
    }
}
