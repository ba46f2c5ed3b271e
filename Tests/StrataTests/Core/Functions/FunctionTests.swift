import Foundation
import Strata
import StrataTestSupport
import Testing

struct FunctionTests {
    @Test func customFunction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { dbValues in
                guard let int = Int.fromDatabaseValue(dbValues[0]) else { return nil }
                return int + 1
            }
            db.add(function: succ)
            #expect(succ.name == "succ")
            #expect(try Int.fetchOne(db, sql: "SELECT succ(1)") == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(NULL)") == nil)
            db.remove(function: succ)
            #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT succ(1)") }
        }
    }

    @Test func variadicFunction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sum = DatabaseFunction("sumOf") { dbValues in
                dbValues.compactMap { Int.fromDatabaseValue($0) }.reduce(0, +)
            }
            db.add(function: sum)
            #expect(try Int.fetchOne(db, sql: "SELECT sumOf(1, 2, 3)") == 6)
            #expect(try Int.fetchOne(db, sql: "SELECT sumOf()") == 0)
        }
    }

    @Test func throwingFunction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sqrt = DatabaseFunction("sqrt", argumentCount: 1) { dbValues in
                guard let double = Double.fromDatabaseValue(dbValues[0]) else { return nil }
                guard double >= 0 else {
                    throw DatabaseError(message: "invalid negative number")
                }
                return double.squareRoot()
            }
            db.add(function: sqrt)
            #expect(try Double.fetchOne(db, sql: "SELECT sqrt(4)") == 2)
            let error = #expect(throws: DatabaseError.self) { try Double.fetchOne(db, sql: "SELECT sqrt(-1)") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "invalid negative number")
            #expect(error?.description.hasPrefix("SQLite error 1: invalid negative number") == true)
        }
    }

    @Test func functionExpressionInSQLLiteral() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let double = DatabaseFunction("double", argumentCount: 1, pure: true) { dbValues in
                Int.fromDatabaseValue(dbValues[0]).map { $0 * 2 }
            }
            db.add(function: double)
            let value = try Int.fetchOne(db, literal: "SELECT \(double(21))")
            #expect(value == 42)
        }
    }

    @Test func aggregate() throws {
        struct MySum: DatabaseAggregate {
            var sum: Int = 0
            mutating func step(_ dbValues: [DatabaseValue]) {
                if let int = Int.fromDatabaseValue(dbValues[0]) { sum += int }
            }
            func finalize() -> (any DatabaseValueConvertible)? { sum }
        }
        struct Failing: DatabaseAggregate {
            mutating func step(_ dbValues: [DatabaseValue]) throws {
                throw DatabaseError(message: "step failed")
            }
            func finalize() -> (any DatabaseValueConvertible)? { nil }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("mysum", argumentCount: 1, pure: true, aggregate: MySum.self))
            db.add(function: DatabaseFunction("failing", argumentCount: 1, aggregate: Failing.self))
            try db.execute(sql: "CREATE TABLE t (g, v); INSERT INTO t VALUES (1, 1), (1, 2), (2, 10)")
            #expect(try Int.fetchAll(db, sql: "SELECT mysum(v) FROM t GROUP BY g ORDER BY g") == [3, 10])
            #expect(try Int.fetchOne(db, sql: "SELECT mysum(v) FROM t WHERE 0") == 0)
            #expect {
                try Int.fetchOne(db, sql: "SELECT failing(v) FROM t")
            } throws: { error in
                (error as? DatabaseError)?.message == "step failed"
            }
        }
    }

    @Test func builtInFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let upper = try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.uppercase.name)('Jérôme')")
            #expect(upper == "JÉRÔME")
            let lower = try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.lowercase.name)('JÉRÔME')")
            #expect(lower == "jérôme")
            let capitalized = try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.capitalize.name)('hello world')")
            #expect(capitalized == "Hello World")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.localizedUppercase.name)('a')") == "A")
        }
    }

    @Test func functionsFromPrepareDatabase() throws {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("answer", argumentCount: 0) { _ in 42 })
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT answer()") } == 42)
    }

    @Test func prepareDatabaseErrorsFailTheOpening() throws {
        struct Boom: Error {}
        var config = Configuration()
        config.prepareDatabase { _ in throw Boom() }
        #expect(throws: Boom.self) { try DatabaseQueue(configuration: config) }
    }
}

struct CollationTests {
    @Test func builtInCollations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(
                sql: "CREATE TABLE t (name TEXT COLLATE \(DatabaseCollation.localizedCaseInsensitiveCompare.name))")
            try db.execute(sql: "INSERT INTO t VALUES ('b'), ('A'), ('c')")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name") == ["A", "b", "c"])
            #expect(
                try String.fetchAll(
                    db, sql: "SELECT name FROM t ORDER BY name COLLATE \(DatabaseCollation.unicodeCompare.name)")
                    == ["A", "b", "c"])
            #expect(
                try Bool.fetchOne(
                    db, sql: "SELECT 'a' = 'A' COLLATE \(DatabaseCollation.caseInsensitiveCompare.name)") == true)
        }
    }

    @Test func customCollation() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let reversed = DatabaseCollation("reversed") { lhs, rhs in
                rhs.compare(lhs)
            }
            db.add(collation: reversed)
            let values = try String.fetchAll(
                db, literal: "SELECT column1 FROM (VALUES ('a'), ('c'), ('b')) ORDER BY column1 COLLATE \(reversed)")
            #expect(values == ["c", "b", "a"])
            #expect(reversed.id == DatabaseCollation("REVERSED") { _, _ in .orderedSame }.id)
            try db.reindex(collation: reversed)
            try db.reindex(collation: .nocase)
            db.remove(collation: reversed)
        }
    }

    @Test func collationNames() {
        #expect(Database.CollationName.nocase.rawValue == "NOCASE")
        #expect(Database.CollationName.binary.rawValue == "BINARY")
        #expect(Database.CollationName.rtrim.rawValue == "RTRIM")
    }
}

struct TraceTests {
    /// The traces, one a line, of a write that creates a table and inserts
    /// a row with an argument, on a queue with `configuration`.
    private func tracesOfAnInsert(_ configuration: Configuration = Configuration()) throws -> [String] {
        let log = LockedBox<[String]>([])
        var config = configuration
        config.prepareDatabase { db in
            db.trace { log.append("SQL> \($0)") }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES (?)", arguments: ["Arthur"])
        }
        return log.value
    }

    @Test func traceStatements() throws {
        let traces = try tracesOfAnInsert()
        #expect(traces.contains("SQL> INSERT INTO player VALUES (?)"))
        #expect(traces.contains("SQL> BEGIN IMMEDIATE TRANSACTION"))
    }

    @Test func publicArgumentsInTraces() throws {
        var config = Configuration()
        config.publicStatementArguments = true
        #expect(try tracesOfAnInsert(config).contains("SQL> INSERT INTO player VALUES ('Arthur')"))
    }

    @Test func profileEvents() throws {
        let log = LockedBox<[String]>([])
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            db.trace(options: .profile) { event in
                if case .profile(let statement, let duration) = event {
                    #expect(duration >= 0)
                    log.append(statement.sql)
                }
                log.append(event.description)
                _ = event.expandedDescription
            }
            _ = try Int.fetchOne(db, sql: "SELECT ?", arguments: [1])
            db.trace()
            _ = try Int.fetchOne(db, sql: "SELECT 2")
        }
        #expect(log.value.contains("SELECT ?"))
        #expect(log.value.contains { $0.hasSuffix("s SELECT ?") })
        #expect(!log.value.contains("SELECT 2"))
    }
}
