import Foundation
import Strata
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
}
