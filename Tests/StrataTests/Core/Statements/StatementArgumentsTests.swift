import Foundation
@testable import Strata
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

    /// A long string (not stored inline in the `String`), so that releasing
    /// it twice or too early would show.
    private static func longText(_ i: Int) -> String {
        "a text long enough to be allocated, number \(i)"
    }

    @Test("The literals a statement no longer needs are destroyed without changing the ones still in use (issue 34)")
    func literalsReleasedByTheNextExecution() throws {
        try inMemoryWrite("CREATE TABLE t(a, b, c)") { db in
            let positional = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?, ?)")
            let named = try db.cachedStatement(sql: "INSERT INTO t VALUES (:a, :b, :c)")
            // Literals that only the statement keeps: each execution
            // destroys those of the previous one.
            for i in 0..<3 {
                try positional.execute(arguments: [i, Self.longText(i), nil])
                #expect(positional.arguments == [i, Self.longText(i), nil])
                try named.execute(arguments: ["a": Self.longText(i), "b": Double(i), "c": Int64(i)])
                #expect(named.arguments == ["a": Self.longText(i), "b": Double(i), "c": Int64(i)])
            }
            // Literals that the caller keeps too are left alone.
            let keptPositional: StatementArguments = [10, Self.longText(10), 10.5]
            let keptNamed: StatementArguments = ["a": Self.longText(11), "b": nil, "c": 11]
            try positional.execute(arguments: keptPositional)
            try named.execute(arguments: keptNamed)
            try positional.execute(arguments: [12, Self.longText(12), nil])
            try named.execute(arguments: ["a": 13, "b": Self.longText(13), "c": nil])
            #expect(keptPositional == [10, Self.longText(10), 10.5])
            #expect(keptPositional.description == #"[10, "\#(Self.longText(10))", 10.5]"#)
            #expect(keptNamed == ["a": Self.longText(11), "b": nil, "c": 11])
            // The arguments read from a statement are the caller's too.
            let read = positional.arguments
            try positional.execute(arguments: [14, Self.longText(14), nil])
            #expect(read == [12, Self.longText(12), nil])
            // Executing again without arguments binds the last ones.
            try positional.execute()
            try named.execute()
            let rows = try Row.fetchAll(db, sql: "SELECT a, b, c FROM t ORDER BY rowid")
            #expect(rows.count == 13)
            #expect(rows[0] == ["a": 0, "b": Self.longText(0), "c": nil])
            #expect(rows[1] == ["a": Self.longText(0), "b": 0.0, "c": 0])
            #expect(rows[6] == ["a": 10, "b": Self.longText(10), "c": 10.5])
            #expect(rows[7] == ["a": Self.longText(11), "b": nil, "c": 11])
            #expect(rows[10] == ["a": 14, "b": Self.longText(14), "c": nil])
            #expect(rows[11] == ["a": 14, "b": Self.longText(14), "c": nil])
            #expect(rows[12] == ["a": 13, "b": Self.longText(13), "c": nil])
        }
    }

    @Test("The memory layouts the literals rely on hold here, and names and texts made at run time are released")
    func literalLayoutsAndRunTimeStrings() throws {
        // Were they not verified, literals would be converted at once: slower,
        // and these fast paths would go untested.
        #expect(ExistentialLayout.isVerified)
        #expect(ImmortalStrings.isVerified)
        let parameter = String(repeating: "long_parameter_name_", count: 2)
        #expect(!withUnsafePointer(to: parameter) { ImmortalStrings.isMarkedImmortal(UnsafeRawPointer($0)) })
        try inMemoryWrite("CREATE TABLE t(a, b)") { db in
            let named = try db.cachedStatement(sql: "INSERT INTO t VALUES (:\(parameter), :b)")
            for i in 0..<3 {
                // A name and a text made at run time, then literals: each
                // execution destroys the previous one's.
                try named.execute(arguments: [parameter: Self.longText(i), "b": i])
                #expect(named.arguments == [parameter: Self.longText(i), "b": i])
                try named.execute(arguments: [parameter: "immortal text", "b": "a"])
            }
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid")
            #expect(rows.map { $0["a"] as String } == (0..<3).flatMap { [Self.longText($0), "immortal text"] })
        }
    }

    @Test("A named literal of the program's names and no text destroys nothing; run-time names or texts are destroyed")
    func namedLiteralsThatNeedNoDestruction() throws {
        func needsDestroying(_ arguments: StatementArguments) -> Bool? {
            arguments.withLiteralNamedValues { $0.needsDestroying }
        }
        let parameter = String(repeating: "long_parameter_name_", count: 2)
        #expect(needsDestroying(["a": 1, "b": 2.5, "c": nil, "d": Int64(4)]) == false)
        #expect(needsDestroying(["a": 1, "b": "text"]) == true)
        #expect(needsDestroying([parameter: 1, "b": 2]) == true)
        // Destroying only empties them: the statement still binds the next
        // ones, and keeps the last ones.
        try inMemoryWrite("CREATE TABLE t(a, b)") { db in
            let named = try db.cachedStatement(sql: "INSERT INTO t VALUES (:a, :b)")
            for i in 0..<4 {
                try named.execute(arguments: ["a": i, "b": i * 10])
                #expect(named.arguments == ["a": i, "b": i * 10])
            }
            try named.execute()
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid")
            #expect(
                rows.map { [$0["a"] as Int, $0["b"] as Int] } == [[0, 0], [1, 10], [2, 20], [3, 30], [3, 30]])
        }
    }

    @Test("Named values in any order, converted or literal, and the errors of missing and extra values (issue 34)")
    func namedBindingAndErrors() throws {
        try inMemoryWrite("CREATE TABLE t(a, b)") { db in
            let named = try db.cachedStatement(sql: "INSERT INTO t VALUES (:a, :b)")
            try named.execute(arguments: ["b": 2, "a": 1])
            try named.execute(arguments: StatementArguments(["a": 3, "b": Date(timeIntervalSince1970: 0)]))
            try named.execute(
                arguments: StatementArguments(["b": 6, "a": 5] as [String: (any DatabaseValueConvertible)?]))
            do {
                try named.execute(arguments: ["a": 7])
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "missing statement argument(s): b")
            }
            let positional = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)")
            do {
                try positional.execute(arguments: [1, 2, 3])
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "wrong number of statement arguments: 3")
            }
            try positional.execute(arguments: [8, nil])
            var appended: StatementArguments = [9]
            appended += [10]
            try positional.execute(arguments: appended)
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid")
            #expect(rows.map { $0["a"] as Int } == [1, 3, 5, 8, 9])
            #expect(
                rows.map { $0["b"] as DatabaseValue } == [
                    2.databaseValue, "1970-01-01 00:00:00.000".databaseValue, 6.databaseValue, .null, 10.databaseValue,
                ])
        }
    }
}
