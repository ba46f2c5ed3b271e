#if SQLKit
    import SQLKit
    import StrataSQLite

    /// The SQL that SQLKit writes for SQLite, as Strata runs it: the same
    /// answers as sqlite-kit's dialect, so that queries, schemas and stored
    /// values are the same whichever of the two runs them.
    ///
    /// Upserts and `RETURNING` depend on the SQLite library the process
    /// runs with (3.24 and 3.35).
    public struct StrataSQLiteDialect: SQLDialect {
        /// A dialect for the SQLite library of the process.
        public init() {}

        /// "sqlite": SQLKit and Fluent recognize SQLite by this name.
        public var name: String { "sqlite" }

        /// Identifiers are double-quoted.
        public var identifierQuote: any SQLExpression { SQLRaw("\"") }

        /// String literals are single-quoted.
        public var literalStringQuote: any SQLExpression { SQLRaw("'") }

        /// False: an `INTEGER PRIMARY KEY` is the row id, and numbers itself
        /// without `AUTOINCREMENT`.
        public var supportsAutoIncrement: Bool { false }

        /// `AUTOINCREMENT`, unused (``supportsAutoIncrement`` is false).
        public var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }

        /// Numbered parameters: `?1`, `?2`...
        public func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?\(position)") }

        /// `TRUE` and `FALSE`, which SQLite reads as 1 and 0.
        public func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "TRUE" : "FALSE") }

        /// `NULL`: SQLite has no `DEFAULT` value expression in `VALUES`; a
        /// NULL row id is numbered by SQLite.
        public var literalDefault: any SQLExpression { SQLLiteral.null }

        /// SQLite has no enum type: enums are text columns.
        public var enumSyntax: SQLEnumSyntax { .unsupported }

        /// `RETURNING`, from SQLite 3.35.
        public var supportsReturning: Bool { sqlite3_libversion_number() >= 3_035_000 }

        /// Triggers with a body, a `WHEN` condition and `UPDATE OF` columns.
        public var triggerSyntax: SQLTriggerSyntax {
            .init(create: [.supportsBody, .supportsCondition, .supportsUpdateColumns], drop: [])
        }

        /// One change per `ALTER TABLE`, and no change of a column's
        /// definition.
        public var alterTableSyntax: SQLAlterTableSyntax { .init(allowsBatch: false) }

        /// `BIGINT` is written `INTEGER`, so that a `BIGINT PRIMARY KEY` is
        /// the row id.
        public func customDataType(for dataType: SQLDataType) -> (any SQLExpression)? {
            if case .bigint = dataType { return SQLDataType.int }
            return nil
        }

        /// `ON CONFLICT ... DO UPDATE/NOTHING`, from SQLite 3.24.
        public var upsertSyntax: SQLUpsertSyntax { sqlite3_libversion_number() >= 3_024_000 ? .standard : .unsupported }

        /// `UNION`, `UNION ALL`, `INTERSECT` and `EXCEPT`, without
        /// parentheses around the selects.
        public var unionFeatures: SQLUnionFeatures { [.union, .unionAll, .intersect, .except] }

        /// `json_extract(column, '$.a.b')`, whose value is JSON text for
        /// objects and arrays.
        public func nestedSubpathExpression(in column: any SQLExpression, for path: [String]) -> (any SQLExpression)? {
            guard !path.isEmpty else { return nil }
            return SQLFunction("json_extract", args: [column, SQLLiteral.string("$." + path.joined(separator: "."))])
        }
    }
#endif
