import Foundation
import Strata
import StrataTestSupport
import Testing

// Conformances and defaults of the GRDB contract, each used for what it does.

/// A column type of the user's that is JSON: the default `sqlExpression`
/// marks it as JSON.
private struct MyJSONColumn: ColumnExpression, SQLJSONExpressible {
    var name: String
}

/// A schema source that relies on the default: no view has a primary key.
private struct SilentSchemaSource: DatabaseSchemaSource {}

/// A dump format that writes through the stream as a `TextOutputStream`.
private struct PrintFormat: DumpFormat {
    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        print("row", terminator: "\n", to: &stream)
    }
    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {}
}

private func requireSendable<T: Sendable>(_: T.Type) {}

struct ContractConformanceTests {
    @Test func upsertUpdateStrategyIsAnOptionSet() {
        let strategy: UpsertUpdateStrategy = [.noColumnUnlessSpecified]
        #expect(strategy.contains(.noColumnUnlessSpecified))
        #expect(UpsertUpdateStrategy.allColumns == [])
        #expect(UpsertUpdateStrategy(rawValue: 1) == .noColumnUnlessSpecified)
    }

    @Test func dumpStreamIsATextOutputStream() throws {
        let dbQueue = try DatabaseQueue()
        let collector = TextCollector()
        try dbQueue.read { db throws in
            try db.dumpSQL("SELECT 1 UNION ALL SELECT 2", format: PrintFormat(), to: collector)
        }
        #expect(collector.text == "row\nrow\n")
    }

    @Test func valueTypesCompare() {
        #expect(ForeignKey(["teamId"]) == ForeignKey(["teamId"]))
        #expect(ForeignKey(["teamId"]) != ForeignKey(["teamId"], to: ["id"]))
        let operators: Set<SQLExpression.AssociativeBinaryOperator> = [.add, .add, .and]
        #expect(operators.count == 2)
        #expect(DatabaseEvent.Kind(rawValue: CInt(SQLITE_INSERT)) == .insert)
        #expect(DatabaseDateComponents.Format(rawValue: "nope") == nil)
        let collation = DatabaseCollation("Mine") { $0.compare($1) }
        #expect(collation.id == DatabaseCollation("mine") { $0.compare($1) }.id)
        let function = DatabaseFunction("f", argumentCount: 1) { _ in nil }
        #expect(function.id == DatabaseFunction("F", argumentCount: 1) { _ in nil }.id)
    }

    @Test func indexOriginIsADatabaseValue() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE t (a UNIQUE, b); CREATE INDEX t_b ON t(b)")
            let origins = try db.indexes(on: "t").map(\.origin)
            #expect(Set(origins) == [.uniqueConstraint, .createIndex])
            #expect(IndexInfo.Origin.primaryKeyConstraint.databaseValue == "pk".databaseValue)
            #expect(IndexInfo.Origin.fromDatabaseValue("u".databaseValue) == .uniqueConstraint)
            let origin = try IndexInfo.Origin.fetchOne(
                db, sql: "SELECT origin FROM pragma_index_list('t') WHERE name = 't_b'")
            #expect(origin == .createIndex)
        }
    }

    @Test func databaseDescribesItself() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            #expect(db.description == String(describing: db))
            #expect(!db.description.isEmpty)
        }
    }

    @Test func prefetchedRowsCompare() throws {
        let row: Row = ["a": 1]
        #expect(row.prefetchedRows == Row(["a": 1]).prefetchedRows)
    }

    @Test func sendableTypes() {
        requireSendable(AsyncValueObservation<Int>.self)
        requireSendable(DebugDumpFormat.self)
        requireSendable(JSONDumpFormat.self)
        requireSendable(LineDumpFormat.self)
        requireSendable(ListDumpFormat.self)
        requireSendable(QuoteDumpFormat.self)
        requireSendable(Inflections.self)
        requireSendable(PersistenceContainer.self)
    }

    @Test func defaultsOfUserTypes() throws {
        try DatabaseQueue().write { db throws in
            let column = MyJSONColumn(name: "info")
            let request = SQLRequest<Row>(literal: "SELECT \(Database.jsonArray([column])) FROM t")
            try db.execute(sql: "CREATE TEMP TABLE t (info)")
            #expect(try requestSQL(db, request) == #"SELECT JSON_ARRAY(JSON("info")) FROM t"#)
            #expect(
                try SilentSchemaSource().columnsForPrimaryKey(db, inView: DatabaseObjectID(name: "v", schemaID: .main))
                    == nil)
        }
    }

    @Test func constrainedQueryInterfaceVariants() throws {
        let dbQueue = try qiPlayerDatabase()
        try dbQueue.read { db throws in
            let scores: [any SQLSpecificExpressible] = [Column("score"), Column("bonus")]
            #expect(
                try requestSQL(db, QIPlayer.select(scores.joined(operator: .add)))
                    == #"SELECT "score" + "bonus" FROM "player""#)
            #expect(
                try requestSQL(db, QIPlayer.filter([Column("a"), Column("b")].joined(operator: .or)))
                    == #"SELECT * FROM "player" WHERE "a" OR "b""#)
            #expect(
                try requestSQL(db, QIPlayer.filter((0..<10).contains(Column("score"))))
                    == #"SELECT * FROM "player" WHERE ("score" >= ?) AND ("score" < ?)"#)
            #expect(
                try requestSQL(db, QIPlayer.filter((0...10).contains(Column("score"))))
                    == #"SELECT * FROM "player" WHERE "score" BETWEEN ? AND ?"#)
            #expect(try Table<Int>("player").fetchSet(db) == [1, 2, 3, 4])
        }
    }
}
