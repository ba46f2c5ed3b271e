extension TableRecord where Self: EncodableRecord {
    /// Returns a request of the records associated to this record, that can
    /// be refined further:
    ///
    /// ```swift
    /// let novels = try author.request(for: Author.books)
    ///     .filter(Column("kind") == "novel")
    ///     .fetchAll(db)
    /// ```
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder>
    where A.OriginRowDecoder == Self {
        let dictionary = (try? databaseDictionary) ?? [:]
        let lowercased = Dictionary(dictionary.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        let steps = association._sqlAssociation.steps
        let condition = steps[0].condition
        let filter = SQLDeferred<SQLExpression>.deferred { db in
            guard let pairs = try condition.columnPairs(db) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "request(for:) needs an association based on a foreign key")
            }
            let values = pairs.map { lowercased[$0.left.lowercased()] ?? .null }
            // A NULL key matches no row.
            if values.contains(where: \.isNull) { return .falseLiteral }
            let tests = zip(pairs, values).map { pair, value in
                SQLExpression(
                    impl: .binary("=", Column(pair.right).sqlExpression, SQLExpression(impl: .databaseValue(value))))
            }
            return tests.count == 1 ? tests[0] : SQLExpression.associative(.and, tests)
        }
        var first = steps[0].relation
        first.filters.append(filter)
        if steps.count == 1 {
            return QueryInterfaceRequest(query: first)
        }
        // Join back from the destination to the first table after this record.
        var join = SQLJoin(
            key: steps[0].keyName, kind: .required, mode: .none, condition: steps[1].condition.reversed,
            relation: first.strippingJoinedSelections())
        for index in 1..<(steps.count - 1) {
            var relation = steps[index].relation.strippingJoinedSelections()
            relation.addJoin(join)
            join = SQLJoin(
                key: steps[index].keyName, kind: .required, mode: .none,
                condition: steps[index + 1].condition.reversed, relation: relation)
        }
        var query = steps[steps.count - 1].relation
        query.addJoin(join)
        return QueryInterfaceRequest(query: query)
    }
}
