import Foundation
import Strata
import StrataTestSupport
import Testing

struct SQLLiteralTests {
    @Test func interpolationBindsValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let name = "O'Brien"
            let sql: SQL = "SELECT \(name), \(42), \(nil as Int?)"
            let (text, arguments) = try sql.build(db)
            #expect(text == "SELECT ?, ?, NULL")
            #expect(arguments == ["O'Brien", 42])
            #expect(try String.fetchOne(db, literal: sql) == "O'Brien")
        }
    }

    @Test func compositionAndIdentifiers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            var sql = SQL(sql: "SELECT ? AS a", arguments: [1])
            sql += ", \(2) AS \(identifier: "order")"
            sql.append(literal: ", \(3) AS c")
            sql.append(sql: ", ? AS d", arguments: [4])
            let (text, arguments) = try sql.build(db)
            #expect(text == "SELECT ? AS a, ? AS \"order\", ? AS c, ? AS d")
            #expect(arguments == [1, 2, 3, 4])
            let row = try Row.fetchOne(db, literal: sql)!
            #expect(row == ["a": 1, "order": 2, "c": 3, "d": 4])
            let joined = [SQL("a"), SQL("b")].joined(separator: ", ")
            #expect(try joined.build(db).sql == "a, b")
            #expect(SQL("").isEmpty)
            #expect(!SQL("a").isEmpty)
        }
    }

    @Test func listsAndColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let ids = [1, 2, 3]
            let sql: SQL = "SELECT \(Column("a")) FROM (SELECT 1 AS a) WHERE a IN \(ids)"
            let (text, arguments) = try sql.build(db)
            #expect(text == "SELECT \"a\" FROM (SELECT 1 AS a) WHERE a IN (?,?,?)")
            #expect(arguments == [1, 2, 3])
            #expect(try Int.fetchAll(db, literal: sql) == [1])
        }
    }

    @Test func sqlRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(
                sql:
                    "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')"
            )
            let name = "Arthur"
            let request: SQLRequest<Row> = "SELECT * FROM player WHERE name = \(name)"
            #expect(try request.fetchOne(db)?["id"] as Int? == 1)
            #expect(try request.fetchCount(db) == 1)
            let names = SQLRequest<String>(sql: "SELECT name FROM player ORDER BY name")
            #expect(try names.fetchAll(db) == ["Arthur", "Barbara"])
            #expect(try names.fetchSet(db) == ["Arthur", "Barbara"])
            #expect(try names.fetchOne(db) == "Arthur")
            let cursor = try names.fetchCursor(db)
            #expect(try cursor.next() == "Arthur")
            let cached = SQLRequest<Int>(sql: "SELECT COUNT(*) FROM player", cached: true)
            #expect(try cached.fetchOne(db) == 2)
            // As a subquery: the request is inserted as is, the literal
            // writes the parentheses.
            let count: SQLRequest<Int> = "SELECT COUNT(*) FROM (\(names))"
            #expect(try count.fetchOne(db) == 2)
            // Prepared request shows SQL and arguments
            let prepared = try request.makePreparedRequest(db, forSingleResult: false)
            #expect(prepared.statement.sql == "SELECT * FROM player WHERE name = ?")
            #expect(prepared.statement.arguments == ["Arthur"])
            // Type erasure and adapters
            let any = AnyFetchRequest(names)
            #expect(try any.fetchAll(db) == ["Arthur", "Barbara"])
            #expect(try any.asRequest(of: Row.self).fetchAll(db).count == 2)
            let adapted = SQLRequest<Row>(sql: "SELECT id, name FROM player ORDER BY id").adapted { _ in
                SuffixRowAdapter(fromIndex: 1)
            }
            #expect(try adapted.fetchOne(db) == ["name": "Arthur"])
            #expect(try adapted.fetchCount(db) == 2)
            #expect(try Row.fetchAll(db, request).count == 1)
            #expect(try String.fetchAll(db, names) == ["Arthur", "Barbara"])
        }
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    static func fetchOne(_ db: Database, literal: SQL) throws -> Self? {
        let (sql, arguments) = try literal.build(db)
        return try fetchOne(db, sql: sql, arguments: arguments)
    }
    static func fetchAll(_ db: Database, literal: SQL) throws -> [Self] {
        let (sql, arguments) = try literal.build(db)
        return try fetchAll(db, sql: sql, arguments: arguments)
    }
}

extension Row {
    static func fetchOne(_ db: Database, literal: SQL) throws -> Row? {
        let (sql, arguments) = try literal.build(db)
        return try fetchOne(db, sql: sql, arguments: arguments)
    }
}
