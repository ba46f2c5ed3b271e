import Foundation
import Strata
import StrataTestSupport
import Testing

/// Database cursors dropped early, failing cursors, and collections built
/// from cursors.
struct CursorLifecycleTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            for i in 0..<10 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
        }
        return dbQueue
    }

    // MARK: - Item 12

    @Test("A cursor dropped before its end does not keep the database busy")
    func droppedCursorResetsItsStatement() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let statement = try db.cachedStatement(sql: "SELECT a FROM t")
            let cursor = try Int.fetchCursor(statement)
            #expect(try cursor.next() == 0)
        }
        // erase and backup need no statement left running.
        let copy = try DatabaseQueue()
        try dbQueue.backup(to: copy)
        #expect(try copy.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 10)
        try dbQueue.erase()
        #expect(try dbQueue.read { db in try db.tableExists("t") } == false)
    }

    @Test("Each kind of database cursor resets its statement when dropped")
    func everyCursorKind() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.cachedStatement(sql: "SELECT a FROM t")
            func isBusy() -> Bool { sqlite3_stmt_busy(statement.sqliteStatement) != 0 }
            do {
                let cursor = try Row.fetchCursor(statement)
                _ = try cursor.next()
                #expect(isBusy())
            }
            #expect(!isBusy())
            do {
                let cursor = try Int.fetchCursor(statement)
                _ = try cursor.next()
            }
            #expect(!isBusy())
            do {
                let cursor = try DatabaseValue.fetchCursor(statement)
                _ = try cursor.next()
            }
            #expect(!isBusy())
            do {
                let cursor = try Item.fetchCursor(statement)
                _ = try cursor.next()
            }
            #expect(!isBusy())
        }
    }

    @Test("An old cursor dropped late leaves the newer cursor of its statement alone")
    func oldCursorLeavesNewerOneAlone() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let statement = try db.cachedStatement(sql: "SELECT a FROM t")
            var old: DatabaseValueCursor<DatabaseValue>? = try DatabaseValue.fetchCursor(statement)
            _ = try old?.next()
            let newer = try Int.fetchCursor(statement)
            #expect(try newer.next() == 0)
            old = nil
            _ = old
            #expect(try newer.next() == 1)
        }
    }

    // MARK: - Item 13

    @Test("A cursor that failed throws again instead of looking exhausted")
    func failedCursorThrowsAgain() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            // abs() of the smallest integer overflows: the second row fails.
            let cursor = try Int.fetchCursor(
                db, sql: "SELECT abs(x) FROM (SELECT 1 AS x UNION ALL SELECT -9223372036854775808)")
            #expect(try cursor.next() == 1)
            #expect(throws: DatabaseError.self) { try cursor.next() }
            #expect(throws: DatabaseError.self) { try cursor.next() }
            #expect(throws: DatabaseError.self) { try cursor.forEach { _ in } }
        }
    }

    // MARK: - Item 14

    /// A cursor that counts the calls to `next()` and `forEach`.
    final class CountingCursor: Cursor {
        var elements: [Int]
        var nextCalls = 0
        var forEachCalls = 0

        init(_ elements: [Int]) { self.elements = elements }

        func next() throws -> Int? {
            nextCalls += 1
            return elements.isEmpty ? nil : elements.removeFirst()
        }

        func forEach(_ body: (Int) throws -> Void) throws {
            forEachCalls += 1
            while !elements.isEmpty { try body(elements.removeFirst()) }
        }
    }

    @Test("Collections built from cursors iterate with forEach")
    func collectionsUseForEach() throws {
        var cursor = CountingCursor([1, 2, 3])
        #expect(try Array(cursor) == [1, 2, 3])
        #expect(cursor.forEachCalls == 1 && cursor.nextCalls == 0)

        cursor = CountingCursor([4, 5])
        var array = [0]
        try array.append(contentsOf: cursor)
        #expect(array == [0, 4, 5])
        #expect(cursor.forEachCalls == 1 && cursor.nextCalls == 0)

        cursor = CountingCursor([1, 1, 2])
        #expect(try Set(cursor) == [1, 2])
        #expect(cursor.forEachCalls == 1 && cursor.nextCalls == 0)

        cursor = CountingCursor([1, 2, 3, 4])
        let grouped = try Dictionary(grouping: cursor, by: { $0 % 2 })
        #expect(grouped == [0: [2, 4], 1: [1, 3]])
        #expect(cursor.forEachCalls == 1 && cursor.nextCalls == 0)

        cursor = CountingCursor([1, 2])
        let pairs = cursor.map { ($0, "\($0)") }
        let dictionary = try Dictionary(uniqueKeysWithValues: pairs)
        #expect(dictionary == [1: "1", 2: "2"])
        #expect(cursor.forEachCalls == 1 && cursor.nextCalls == 0)
    }
}

/// A record read from the first column.
private struct Item: FetchableRecord {
    var a: Int
    init(row: Row) throws { a = row[0] }
}
