import Foundation
import Strata
import StrataTestSupport
import Testing

// The values SQLite keeps bound after `execute(arguments:)`, seen by stepping
// the raw statement again without binding anything: none for statements of
// at most 20 parameters, all of them for larger statements.

struct StatementBindingsAfterExecutionTests {
    /// Executes an INSERT of `parameterCount` columns with `values`, steps it
    /// again through the raw handle, and returns the rows of the table.
    private func rowsAfterRawStep(parameterCount: Int, values: [DatabaseValue]) throws -> [[DatabaseValue]] {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db in
            let columns = (1...parameterCount).map { "c\($0)" }
            try db.execute(sql: "CREATE TABLE t(\(columns.joined(separator: ", ")))")
            let placeholders = Array(repeating: "?", count: parameterCount).joined(separator: ", ")
            let statement = try db.makeStatement(
                sql: "INSERT INTO t(\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
            try statement.execute(arguments: StatementArguments(values))
            let sqliteStatement = statement.sqliteStatement
            sqlite3_reset(sqliteStatement)
            #expect(sqlite3_step(sqliteStatement) == SQLITE_DONE)
            return try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY rowid").map { Array($0.databaseValues) }
        }
    }

    @Test("B21: after execute(arguments:), a statement of at most 20 parameters has no value bound")
    func fewParametersAreUnbound() throws {
        let numbers: [DatabaseValue] = [42.databaseValue]
        #expect(try rowsAfterRawStep(parameterCount: 1, values: numbers) == [numbers, [.null]])
        let texts: [DatabaseValue] = ["Foo".databaseValue]
        #expect(try rowsAfterRawStep(parameterCount: 1, values: texts) == [texts, [.null]])
        let twenty = (1...20).map { $0.databaseValue }
        let nulls = Array(repeating: DatabaseValue.null, count: 20)
        #expect(try rowsAfterRawStep(parameterCount: 20, values: twenty) == [twenty, nulls])
    }

    @Test("B21: after execute(arguments:), a statement of more than 20 parameters keeps its values bound")
    func manyParametersStayBound() throws {
        let numbers = (1...21).map { $0.databaseValue }
        #expect(try rowsAfterRawStep(parameterCount: 21, values: numbers) == [numbers, numbers])
        let texts = (1...21).map { "Foo\($0)".databaseValue }
        #expect(try rowsAfterRawStep(parameterCount: 21, values: texts) == [texts, texts])
    }

    @Test("B21: execute() without arguments after execute(arguments:) runs with the same arguments")
    func executeAgainRebinds() throws {
        try inMemoryWrite("CREATE TABLE t(a, b)") { db in
            let statement = try db.makeStatement(sql: "INSERT INTO t(a, b) VALUES (?, ?)")
            try statement.execute(arguments: [1, "one"])
            try statement.execute()
            let row: [DatabaseValue] = [1.databaseValue, "one".databaseValue]
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid").map { Array($0.databaseValues) }
            #expect(rows == [row, row])
        }
    }
}
