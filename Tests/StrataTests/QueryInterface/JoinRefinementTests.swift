import Foundation
import Strata
import StrataTestSupport
import Testing

/// Refinements of joined associations (issue 28): the same association used
/// twice, common table expressions of joined tables, orderings of the whole
/// request, and the spelling of join columns.
struct JoinRefinementTests {
    /// `a(id, bId)` → `b(id)`: b 1 and 2, a 1 → b 1, a 2 → b 2.
    private func abDatabase() throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE b (id INTEGER PRIMARY KEY);
            CREATE TABLE a (id INTEGER PRIMARY KEY, bId INTEGER REFERENCES b(id));
            INSERT INTO b VALUES (1), (2);
            INSERT INTO a VALUES (1, 1), (2, 2);
            """)
    }

    private let a = Table("a")
    private var aToB: BelongsToAssociation<Row, Row> { a.belongsTo(Table("b")) }

    @Test("B05: a later ordering of the same association replaces the earlier one")
    func laterOrderingWins() throws {
        try abDatabase().read { db throws in
            let request = a.joining(required: aToB.order(Column("id"))).joining(required: aToB.order(Column("id").desc))
            #expect(
                try requestSQL(db, request)
                    == #"SELECT "a".* FROM "a" JOIN "b" ON "b"."id" = "a"."bId" ORDER BY "b"."id" DESC"#)
            #expect(try Row.fetchAll(db, request).map { $0["id"] as Int64 } == [2, 1])
        }
    }

    @Test("B05: the last including of the same association decides its selection")
    func lastIncludingDecidesSelection() throws {
        try abDatabase().read { db throws in
            let custom1 = aToB.select(Column("id"), SQL(sql: "1"))
            let custom2 = aToB.select(Column("id"), SQL(sql: "2"))
            let join = #"FROM "a" JOIN "b" ON "b"."id" = "a"."bId""#
            let cases: [(QueryInterfaceRequest<Row>, String)] = [
                (a.including(required: custom1).including(required: aToB), #"SELECT "a".*, "b".* "# + join),
                (a.including(required: aToB).including(required: custom2), #"SELECT "a".*, "b"."id", 2 "# + join),
                (a.including(required: custom1).including(required: custom2), #"SELECT "a".*, "b"."id", 2 "# + join),
                // `joining` selects nothing: it keeps the selection of `including`.
                (a.including(required: custom1).joining(required: aToB), #"SELECT "a".*, "b"."id", 1 "# + join),
                (a.joining(required: aToB).including(required: custom2), #"SELECT "a".*, "b"."id", 2 "# + join),
            ]
            for (request, sql) in cases {
                #expect(try requestSQL(db, request) == sql)
            }
            let row = try #require(try Row.fetchOne(db, a.including(required: custom1).including(required: custom2)))
            #expect(row.scopes["b"] == ["id": 1, "2": 2])
        }
    }

    @Test("B05: the last join condition of the same association wins")
    func lastConditionWins() throws {
        try abDatabase().read { db throws in
            let cte = CommonTableExpression(named: "cte", sql: "SELECT 1 AS id UNION ALL SELECT 2")
            let greater = a.association(to: cte) { a, cte in a[Column("id")] > cte[Column("id")] }
            let sum = a.association(to: cte) { a, cte in a[Column("id")] + cte[Column("id")] == 3 }
            let request = a.including(required: greater).including(required: sum).order(Column("id"))
            #expect(
                try requestSQL(db, request)
                    == """
                    WITH "cte" AS (SELECT 1 AS id UNION ALL SELECT 2) SELECT "a".*, "cte".* FROM "a" \
                    JOIN "cte" ON ("a"."id" + "cte"."id") = ? ORDER BY "a"."id"
                    """)
            #expect(try Row.fetchAll(db, request).map { $0.scopes["cte"]?["id"] as Int64? } == [2, 1])
        }
    }

    @Test("B10: the common table expression of a joined association replaces the one of the request")
    func cteOfJoinedAssociationWins() throws {
        let log = SQLLog()
        try awardLibrary(log).read { db throws in
            let cte1 = CommonTableExpression(named: "cte", sql: "SELECT 1")
            let cte2 = CommonTableExpression(named: "cte", sql: "SELECT 2")
            let value = SQL(sql: "(SELECT * FROM cte)").forKey("value")

            let request1 = LibBook.with(cte1).joining(required: LibBook.author.with(cte2)).select(value)
            #expect(
                try requestSQL(db, request1)
                    == """
                    WITH "cte" AS (SELECT 2) SELECT (SELECT * FROM cte) AS "value" FROM "book" \
                    JOIN "author" ON "author"."id" = "book"."authorId"
                    """)
            #expect(try Int.fetchOne(db, request1) == 2)

            // Two joins to the same table under different keys.
            let request2 =
                LibBook
                .joining(required: LibBook.author.forKey("a1").with(cte1))
                .joining(required: LibBook.author.forKey("a2").with(cte2))
                .select(value)
            #expect(try requestSQL(db, request2).hasPrefix(#"WITH "cte" AS (SELECT 2) "#))
            #expect(try Int.fetchOne(db, request2) == 2)

            // The through association is merged on top of its pivot: its
            // expression comes last.
            let request3 =
                LibBook
                .joining(required: LibBook.country.with(cte1))
                .joining(required: LibBook.author.with(cte2))
                .select(value)
            #expect(
                try requestSQL(db, request3)
                    == """
                    WITH "cte" AS (SELECT 1) SELECT (SELECT * FROM cte) AS "value" FROM "book" \
                    JOIN "author" ON "author"."id" = "book"."authorId" \
                    JOIN "country" ON "country"."code" = "author"."countryCode"
                    """)
            #expect(try Int.fetchOne(db, request3) == 1)
        }
    }

    @Test("B11: unordered() removes the orderings of joined associations")
    func unorderedRemovesJoinedOrderings() throws {
        try assocLibrary().read { db throws in
            let request = AssocBook.order(Column("title"))
                .joining(required: AssocBook.author.order(Column("name").desc, Column("id")))
            #expect(
                try requestSQL(db, request.unordered())
                    == #"SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId""#)
            #expect(
                try requestSQL(db, request.reversed().unordered().order(Column("year")))
                    == """
                    SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                    ORDER BY "book"."year"
                    """)
        }
    }

    @Test("B11: withStableOrder() appends each table's primary key after that table's orderings")
    func withStableOrderAppendsEachPrimaryKey() throws {
        try assocLibrary().read { db throws in
            let request = AssocBook.order(Column("kind"))
                .including(required: AssocBook.author.order(Column("countryCode").desc))
            #expect(
                try requestSQL(db, request.withStableOrder())
                    == """
                    SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                    ORDER BY "book"."kind", "book"."id", "author"."countryCode" DESC, "author"."id"
                    """)
            #expect(
                try Row.fetchAll(db, request.withStableOrder()).map { $0["title"] as String }
                    == ["Werther", "Cien años de soledad", "Faust", "Inferno"])
            // reversed() reverses every table, primary keys included.
            #expect(
                try requestSQL(db, request.withStableOrder().reversed())
                    == """
                    SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                    ORDER BY "book"."kind" DESC, "book"."id" DESC, "author"."countryCode" ASC, "author"."id" DESC
                    """)
        }
    }

    @Test("B36: join conditions use the schema's spelling of ForeignKey columns")
    func joinConditionUsesSchemaSpelling() throws {
        try inMemoryWrite(
            """
            CREATE TABLE PARENTS (id INTEGER PRIMARY KEY);
            CREATE TABLE CHILDREN (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES PARENTS(id));
            INSERT INTO PARENTS VALUES (1);
            INSERT INTO CHILDREN VALUES (1, 1), (2, 1);
            """
        ) { db throws in
            let children = Table("CHILDREN")
            let parent = children.belongsTo(Table("PARENTS"), using: ForeignKey(["PARENTID"]))
            #expect(
                try requestSQL(db, children.joining(required: parent))
                    == #"SELECT "CHILDREN".* FROM "CHILDREN" JOIN "PARENTS" ON "PARENTS"."id" = "CHILDREN"."parentId""#)
            // A foreign key that names its destination too keeps its own
            // spelling (C3).
            let explicit = children.belongsTo(Table("PARENTS"), using: ForeignKey(["PARENTID"], to: ["ID"]))
            #expect(
                try requestSQL(db, children.joining(required: explicit))
                    == #"SELECT "CHILDREN".* FROM "CHILDREN" JOIN "PARENTS" ON "PARENTS"."ID" = "CHILDREN"."PARENTID""#)
            // Prefetched rows are grouped by the schema's spelling too.
            let parents = Table("PARENTS")
            let rows = try Row.fetchAll(
                db,
                parents.including(
                    all: parents.hasMany(Table("CHILDREN"), key: "children", using: ForeignKey(["PARENTID"]))))
            #expect(rows.first?.prefetchedRows["children"]?.count == 2)
        }
    }

    /// `PARENTS` and `CHILDREN`: record types whose table names are spelled
    /// otherwise than the schema's `parents` and `children`.
    private struct UpperParent: TableRecord {
        static let databaseTableName = "PARENTS"
    }

    private struct UpperChild: TableRecord {
        static let databaseTableName = "CHILDREN"
    }

    /// `parents(id INTEGER PRIMARY KEY, name TEXT)` and `children`, whose
    /// `parentId` refers to it, with one parent `foo` and its child.
    private func parentsAndChildren(_ body: (Database) throws -> Void) throws {
        try inMemoryWrite { db in
            try db.create(table: "parents") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
            }
            try db.create(table: "children") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("parent")
            }
            try db.execute(sql: "INSERT INTO parents VALUES (1, 'foo'); INSERT INTO children (parentId) VALUES (1)")
            try body(db)
        }
    }

    /// Checks the SQL of the joins of `association`, required and optional
    /// (`including`, `joining`, `annotated`), whose join condition is
    /// `condition`, and of a join of the association filtered on the
    /// parent's name, which runs and finds the child.
    private func expectJoins(
        _ db: Database, _ association: BelongsToAssociation<UpperChild, UpperParent>, condition: String
    ) throws {
        let parentName = association.select(Column("name"))
        let requests: [(QueryInterfaceRequest<UpperChild>, String)] = [
            (UpperChild.including(required: association), #"SELECT "CHILDREN".*, "PARENTS".* FROM "CHILDREN" JOIN"#),
            (
                UpperChild.including(optional: association),
                #"SELECT "CHILDREN".*, "PARENTS".* FROM "CHILDREN" LEFT JOIN"#
            ),
            (UpperChild.joining(required: association), #"SELECT "CHILDREN".* FROM "CHILDREN" JOIN"#),
            (UpperChild.joining(optional: association), #"SELECT "CHILDREN".* FROM "CHILDREN" LEFT JOIN"#),
            (
                UpperChild.annotated(withRequired: parentName),
                #"SELECT "CHILDREN".*, "PARENTS"."name" FROM "CHILDREN" JOIN"#
            ),
            (
                UpperChild.annotated(withOptional: parentName),
                #"SELECT "CHILDREN".*, "PARENTS"."name" FROM "CHILDREN" LEFT JOIN"#
            ),
        ]
        for (request, prefix) in requests {
            #expect(try requestSQL(db, request) == prefix + #" "PARENTS" ON "# + condition)
        }
        let statements = try recordSQL(db, expanded: true) {
            let rows = try Row.fetchAll(
                db, UpperChild.including(required: association.filter(Column("name") == "foo")))
            #expect(rows.count == 1)
        }
        #expect(
            statements == [
                #"SELECT "CHILDREN".*, "PARENTS".* FROM "CHILDREN" JOIN "PARENTS" ON ("# + condition
                    + #") AND ("PARENTS"."name" = 'foo')"#
            ])
    }

    @Test("C3: a ForeignKey that names its columns and their destination keeps its own spelling in joins")
    func explicitForeignKeyKeepsItsSpelling() throws {
        try parentsAndChildren { db throws in
            let foreignKey = ForeignKey([Column("PARENTID")], to: [Column("ID")])
            let condition = #""PARENTS"."ID" = "CHILDREN"."PARENTID""#
            try expectJoins(db, UpperChild.belongsTo(UpperParent.self, using: foreignKey), condition: condition)

            // With tables instead of record types.
            let children = Table("CHILDREN")
            let tableAssociation = children.belongsTo(Table("PARENTS"), using: foreignKey)
            #expect(
                try requestSQL(db, children.including(required: tableAssociation))
                    == #"SELECT "CHILDREN".*, "PARENTS".* FROM "CHILDREN" JOIN "PARENTS" ON "# + condition)
            #expect(
                try requestSQL(db, children.joining(optional: tableAssociation))
                    == #"SELECT "CHILDREN".* FROM "CHILDREN" LEFT JOIN "PARENTS" ON "# + condition)
        }
    }

    @Test("C3: a ForeignKey of origin columns only, or none, gets the schema's spelling in joins")
    func originOnlyForeignKeyGetsSchemaSpelling() throws {
        try parentsAndChildren { db throws in
            let condition = #""PARENTS"."id" = "CHILDREN"."parentId""#
            try expectJoins(
                db, UpperChild.belongsTo(UpperParent.self, using: ForeignKey([Column("PARENTID")])),
                condition: condition)
            try expectJoins(db, UpperChild.belongsTo(UpperParent.self), condition: condition)
            let children = Table("CHILDREN")
            let tableAssociation = children.belongsTo(Table("PARENTS"), using: ForeignKey([Column("PARENTID")]))
            #expect(
                try requestSQL(db, children.including(optional: tableAssociation))
                    == #"SELECT "CHILDREN".*, "PARENTS".* FROM "CHILDREN" LEFT JOIN "PARENTS" ON "# + condition)
        }
    }
}
