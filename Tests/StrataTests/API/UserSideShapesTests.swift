import Foundation
import Strata
import StrataTestSupport
import Testing

// Shapes of user code written for GRDB 7 that must compile, and mean the
// same, against Strata: untyped requests, values as expressions, Codable
// halves, raw representable wrappers.

/// Only `Encodable`: it gets `databaseValue`, and decodes by hand.
private struct Label: Encodable, DatabaseValueConvertible, Equatable {
    var text: String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Label? {
        String.fromDatabaseValue(dbValue).map(Label.init(text:))
    }
}

/// Only `Decodable`: it gets `fromDatabaseValue`, and encodes by hand.
private struct Score: Decodable, DatabaseValueConvertible, Equatable {
    var points: Int

    init(points: Int) { self.points = points }

    init(from decoder: any Decoder) throws {
        points = try decoder.singleValueContainer().decode(Int.self)
    }

    var databaseValue: DatabaseValue { points.databaseValue }
}

/// A raw representable wrapper whose SQL powers come from its raw value.
private struct Tag<RawValue>: RawRepresentable {
    var rawValue: RawValue
}

extension Tag: SQLExpressible where RawValue: SQLExpressible {}
extension Tag: SQLSelectable where RawValue: SQLSelectable {}
extension Tag: SQLOrderingTerm where RawValue: SQLOrderingTerm {}

struct UserSideShapesTests {
    private func sql(_ request: some FetchRequest) throws -> String {
        let dbQueue = try qiPlayerDatabase()
        return try dbQueue.read { db throws in try requestSQL(db, request) }
    }

    @Test func untypedSQLRequestsFetchRows() throws {
        let dbQueue = try qiPlayerDatabase()
        try dbQueue.read { db throws in
            let request = SQLRequest(sql: "SELECT score FROM player WHERE id = ?", arguments: [1])
            let row: Row? = try request.fetchOne(db)
            #expect(row?["score"] == 1000)
            #expect(try Int.fetchOne(db, SQLRequest(sql: "SELECT score FROM player WHERE id = 2")) == 2000)
            let literal = SQLRequest(literal: "SELECT name FROM player WHERE id = \(3)")
            #expect(try String.fetchOne(db, literal) == "Craig")
            #expect(type(of: request) == SQLRequest<Row>.self)
            #expect(type(of: literal) == SQLRequest<Row>.self)
            // An explicit type still wins.
            #expect(try SQLRequest<String>(sql: "SELECT 'x'").fetchOne(db) == "x")
        }
    }

    @Test func untypedCommonTableExpressionsAreOfRows() throws {
        let fromSQL = CommonTableExpression(named: "a", sql: "SELECT 1 AS x")
        let fromLiteral = CommonTableExpression(named: "b", literal: "SELECT \(2) AS x")
        let fromRequest = CommonTableExpression(named: "c", request: QIPlayer.select(Column("id")))
        #expect(type(of: fromSQL) == CommonTableExpression<Row>.self)
        #expect(type(of: fromLiteral) == CommonTableExpression<Row>.self)
        #expect(type(of: fromRequest) == CommonTableExpression<Row>.self)
        let dbQueue = try qiPlayerDatabase()
        try dbQueue.read { db throws in
            let rows = try fromSQL.all().with(fromSQL).fetchAll(db)
            #expect(rows.map { $0["x"] as Int } == [1])
            #expect(try fromRequest.all().with(fromRequest).fetchCount(db) == 4)
        }
    }

    @Test func databaseValuesAreExpressions() throws {
        #expect(try sql(QIPlayer.filter(true.databaseValue)) == #"SELECT * FROM "player" WHERE ?"#)
        #expect(try sql(QIPlayer.select(1.databaseValue)) == #"SELECT ? FROM "player""#)
        #expect(try sql(QIPlayer.order(1.databaseValue)) == #"SELECT * FROM "player" ORDER BY ?"#)
        #expect(
            try sql(QIPlayer.filter(Column("name") == "abc".databaseValue.collating(.nocase)))
                == #"SELECT * FROM "player" WHERE "name" = (? COLLATE NOCASE)"#)
        #expect(
            try sql(QIPlayer.select(Database.jsonArray(["[1]".databaseValue.asJSON])))
                == #"SELECT JSON_ARRAY(JSON(?)) FROM "player""#)
        let dbQueue = try qiPlayerDatabase()
        try dbQueue.read { db throws in
            let dbValue = "2000-01-01 12:00:00".databaseValue
            #expect(try Double.fetchOne(db, QIPlayer.select(julianDay(dbValue))) == 2_451_545)
            #expect(try QIPlayer.filter(false.databaseValue).fetchCount(db) == 0)
        }
    }

    @Test func dateModifiersAndOptionalExpressionsAreExpressions() throws {
        #expect(
            try sql(QIPlayer.select(SQLDateModifier.day(1)))
                == #"SELECT ? FROM "player""#)
        let optionalColumn: Column? = Column("score")
        let missingColumn: Column? = nil
        #expect(try sql(QIPlayer.filter(optionalColumn == 1)) == #"SELECT * FROM "player" WHERE "score" = ?"#)
        #expect(try sql(QIPlayer.select(optionalColumn)) == #"SELECT "score" FROM "player""#)
        #expect(try sql(QIPlayer.order(missingColumn)) == #"SELECT * FROM "player" ORDER BY NULL"#)
        // A plain optional value is no expression: `Int?` has no SQL operators,
        // so Swift's own `==` and `??` apply.
        let optionalInt: Int? = nil
        #expect((optionalInt ?? 3) == 3)
    }

    @Test func encodableOnlyAndDecodableOnlyValues() throws {
        #expect(Label(text: "hello").databaseValue == "hello".databaseValue)
        #expect(Score.fromDatabaseValue(42.databaseValue) == Score(points: 42))
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Label.fetchOne(db, sql: "SELECT ?", arguments: [Label(text: "x")]) == Label(text: "x"))
            #expect(try Score.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT 2") == [Score(points: 1), Score(points: 2)])
        }
    }

    @Test func rawRepresentableWrappersSelectAndOrder() throws {
        let tag = Tag(rawValue: Column("score"))
        #expect(try sql(QIPlayer.select(tag)) == #"SELECT "score" FROM "player""#)
        #expect(try sql(QIPlayer.order(tag)) == #"SELECT * FROM "player" ORDER BY "score""#)
        #expect(try sql(QIPlayer.filter(tag.sqlExpression > 0)) == #"SELECT * FROM "player" WHERE "score" > ?"#)
        let ordering = Tag(rawValue: Column("name").desc)
        #expect(try sql(QIPlayer.order(ordering)) == #"SELECT * FROM "player" ORDER BY "name" DESC"#)
    }

    @Test func syncMigrationInAsyncFunction() async throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE t (a)")
        }
        let dbQueue = try DatabaseQueue()
        // GRDB code: no `await`, the sync `migrate(_:)` is picked.
        try migrator.migrate(dbQueue)
        #expect(try await dbQueue.read { db in try db.tableExists("t") })
    }
}
