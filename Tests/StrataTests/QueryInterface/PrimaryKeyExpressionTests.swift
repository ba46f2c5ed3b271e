import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Writer: TableRecord {
    static let databaseTableName = "writer"
}

private struct Novel: TableRecord {
    static let databaseTableName = "novel"
    static let writer = belongsTo(Writer.self)
}

private struct Pair: TableRecord {
    static let databaseTableName = "pair"
}

private struct Item: TableRecord {
    static let databaseTableName = "item"
    static let pair = belongsTo(Pair.self)
}

/// Expressions and groupings built on the primary key of a table.
struct PrimaryKeyExpressionTests {
    private func makeDatabase(_ log: SQLLog) throws -> DatabaseQueue {
        try inMemoryDatabase(
            """
            CREATE TABLE passport (
              countryCode TEXT NOT NULL, citizenId INTEGER NOT NULL, score INTEGER,
              PRIMARY KEY (countryCode, citizenId));
            CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER);
            CREATE TABLE tag (a TEXT, b TEXT, score INTEGER, PRIMARY KEY (a, b)) WITHOUT ROWID;
            CREATE TABLE writer (id TEXT PRIMARY KEY, name TEXT);
            CREATE TABLE novel (id INTEGER PRIMARY KEY, writerId TEXT REFERENCES writer(id));
            CREATE TABLE pair (a INTEGER, b INTEGER, PRIMARY KEY (a, b)) WITHOUT ROWID;
            CREATE TABLE item (
              id INTEGER PRIMARY KEY, pairA INTEGER, pairB INTEGER,
              FOREIGN KEY (pairA, pairB) REFERENCES pair(a, b));
            INSERT INTO passport VALUES ('FR', 1, 0), ('US', 1, 0);
            INSERT INTO writer VALUES ('w1', 'Zola');
            INSERT INTO novel VALUES (1, 'w1'), (2, NULL);
            INSERT INTO pair VALUES (1, 2);
            INSERT INTO item VALUES (1, 1, 2), (2, NULL, NULL), (3, 1, NULL);
            """, recordingIn: log)
    }

    @Test("B27: groupByPrimaryKey() groups by the INTEGER PRIMARY KEY, the rowid, or the keys of WITHOUT ROWID tables")
    func groupByPrimaryKey() throws {
        let log = SQLLog()
        try makeDatabase(log).write { db throws in
            #expect(
                try requestSQL(db, Table("passport").all().groupByPrimaryKey())
                    == #"SELECT * FROM "passport" GROUP BY "rowid""#)
            #expect(
                try requestSQL(db, Table("player").all().groupByPrimaryKey())
                    == #"SELECT * FROM "player" GROUP BY "id""#)
            #expect(
                try requestSQL(db, Table("tag").all().groupByPrimaryKey())
                    == #"SELECT * FROM "tag" GROUP BY "a", "b""#)
            log.clear()
            try Table("passport").all().groupByPrimaryKey().updateAll(db, Column("score").set(to: 1))
            try Table("passport").all().groupByPrimaryKey().deleteAll(db)
            #expect(try Table("passport").fetchCount(db) == 0)
        }
        #expect(
            log.statements(.user) == [
                #"UPDATE "passport" SET "score" = ? WHERE "rowid" IN (SELECT "rowid" FROM "passport" GROUP BY "rowid")"#,
                #"DELETE FROM "passport" WHERE "rowid" IN (SELECT "rowid" FROM "passport" GROUP BY "rowid")"#,
                #"SELECT COUNT(*) FROM "passport""#,
            ])
    }

    @Test("B37: !alias.exists tests the rowid, or all the columns of a WITHOUT ROWID primary key")
    func missingJoinedRow() throws {
        let log = SQLLog()
        try makeDatabase(log).read { db throws in
            let writer = TableAlias()
            let withoutWriter = Novel.joining(optional: Novel.writer.aliased(writer)).filter(!writer.exists)
            #expect(
                try requestSQL(db, withoutWriter) == """
                    SELECT "novel".* FROM "novel" LEFT JOIN "writer" ON "writer"."id" = "novel"."writerId" \
                    WHERE "writer"."rowid" IS NULL
                    """)
            #expect(try Row.fetchAll(db, withoutWriter).map { $0["id"] as Int64 } == [2])
            let withWriter = Novel.joining(optional: Novel.writer.aliased(writer)).filter(writer.exists)
            #expect(try Row.fetchAll(db, withWriter).map { $0["id"] as Int64 } == [1])

            let pair = TableAlias()
            let withoutPair = Item.joining(optional: Item.pair.aliased(pair)).filter(!pair.exists)
            #expect(
                try requestSQL(db, withoutPair) == """
                    SELECT "item".* FROM "item" LEFT JOIN "pair" ON ("pair"."a" = "item"."pairA") \
                    AND ("pair"."b" = "item"."pairB") WHERE ("pair"."a" IS NULL) AND ("pair"."b" IS NULL)
                    """)
            #expect(try Row.fetchAll(db, withoutPair).map { $0["id"] as Int64 } == [2, 3])
            let withPair = Item.joining(optional: Item.pair.aliased(pair)).filter(pair.exists)
            #expect(
                try requestSQL(db, withPair).hasSuffix(#"WHERE ("pair"."a" IS NOT NULL) OR ("pair"."b" IS NOT NULL)"#))
            #expect(try Row.fetchAll(db, withPair).map { $0["id"] as Int64 } == [1])
        }
    }
}
