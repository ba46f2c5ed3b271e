import Foundation
import Strata
import StrataTestSupport
import Testing

struct StatementArgumentsTests {
    @Test func literals() {
        let positional: StatementArguments = [1, "foo", nil]
        #expect(positional.description == "[1, \"foo\", NULL]")
        #expect(!positional.isEmpty)
        let named: StatementArguments = ["name": "Arthur", "score": 1000]
        #expect(named.description == "[name:\"Arthur\", score:1000]")
        #expect(StatementArguments().isEmpty)
    }

    @Test func concatenation() {
        let a: StatementArguments = [1, 2]
        let b: StatementArguments = [3]
        #expect((a + b) == [1, 2, 3])
        var c = a
        c += b
        #expect(c == [1, 2, 3])
        let n1: StatementArguments = ["a": 1, "b": 2]
        let n2: StatementArguments = ["b": 3]
        let merged = n1 &+ n2
        #expect(merged == ["a": 1, "b": 3])
        var n3 = n1
        let replaced = n3.append(contentsOf: n2)
        #expect(replaced == ["b": 2.databaseValue])
    }

    @Test func untrustedValues() {
        #expect(StatementArguments([1, "foo", NSNull()] as [Any]) != nil)
        #expect(StatementArguments([NSObject()] as [Any]) == nil)
        #expect(StatementArguments(["a": 1] as [AnyHashable: Any]) != nil)
        #expect(StatementArguments(["a": NSObject()] as [AnyHashable: Any]) == nil)
    }

    @Test func sequences() throws {
        let ints = StatementArguments([1, 2, 3])
        #expect(ints == [1, 2, 3])
        let optionals: [(any DatabaseValueConvertible)?] = [1, nil]
        #expect(StatementArguments(optionals) == [1, nil])
        let dict: [String: (any DatabaseValueConvertible)?] = ["a": 1, "b": nil]
        #expect(StatementArguments(dict) == ["a": 1, "b": nil])
    }

    @Test func mixedArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let value = try Int.fetchOne(db, sql: "SELECT :a + ?", arguments: StatementArguments([2]) + ["a": 1])
            #expect(value == 3)
        }
    }

    @Test("Literals of plain values (kept as given until bound) equal, hash and append like converted values")
    func literalsOfPlainValues() throws {
        let literal: StatementArguments = [1, Int64(2), 3.5, "four", nil]
        let converted = StatementArguments([
            1.databaseValue, 2.databaseValue, 3.5.databaseValue, "four".databaseValue, DatabaseValue.null,
        ])
        #expect(literal == converted)
        #expect(literal.hashValue == converted.hashValue)
        #expect(literal.description == converted.description)

        let named: StatementArguments = ["a": 1, "b": "two", "c": nil]
        let namedConverted = StatementArguments([
            "a": 1.databaseValue, "b": "two".databaseValue, "c": DatabaseValue.null,
        ])
        #expect(named == namedConverted)
        #expect(named.hashValue == namedConverted.hashValue)

        // A value that is not plain (a Date) converts the whole literal at once.
        let date = Date(timeIntervalSince1970: 0)
        let mixed: StatementArguments = [1, date]
        #expect(mixed == StatementArguments([1.databaseValue, date.databaseValue]))

        var appended = literal
        appended += [6]
        appended += ["d": 7]
        #expect(
            appended == StatementArguments([1, Int64(2), 3.5, "four", nil, 6] as [(any DatabaseValueConvertible)?]) + [
                "d": 7
            ])

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a, b, c, d, e)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments: literal)
            try db.execute(sql: "INSERT INTO t VALUES (:a, :b, :c, :a, :b)", arguments: named)
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY rowid")
            #expect(rows[0] == ["a": 1, "b": 2, "c": 3.5, "d": "four", "e": nil])
            #expect(rows[1] == ["a": 1, "b": "two", "c": nil, "d": 1, "e": "two"])
        }
    }
}
