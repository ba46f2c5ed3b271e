import Foundation
import Strata
import StrataTestSupport
import Testing

// Decodable records fetched from a cursor decode from the same, reused row:
// the fast paths (predicted columns, reused containers) must give the same
// results and errors as a fresh row, record after record.

private struct Pair: Decodable, FetchableRecord, Equatable {
    enum CodingKeys: String, CodingKey { case a, b }
    var a: Int
    var b: String?
}

/// Reads its columns in another order than the statement.
private struct ReversedPair: Decodable, FetchableRecord, Equatable {
    var b: String?
    var a: Int
}

/// Decodes another record from the same row, without scope.
private struct Wrapper: Decodable, FetchableRecord, Equatable {
    var pair: Pair
    var c: Double
}

/// Shares the coding keys of `Pair`, with another column strategy.
private struct SnakePair: Decodable, FetchableRecord, Equatable {
    typealias CodingKeys = Pair.CodingKeys
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    var a: Int
    var b: String?
}

/// Coding keys that are not named after their case.
private struct Renamed: Decodable, FetchableRecord, Equatable {
    enum CodingKeys: String, CodingKey {
        case first = "b"
        case second = "a"
    }
    var first: String?
    var second: Int
}

/// Coding keys that are not a plain enum.
private struct Dynamic: Decodable, FetchableRecord, Equatable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    var a: Int
    var b: String?

    init(a: Int, b: String?) {
        self.a = a
        self.b = b
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        a = try container.decode(Int.self, forKey: Key(stringValue: "a"))
        b = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "b"))
    }
}

@Suite struct DecodableCursorTests {
    private let sql = "SELECT 1 AS a, 'x' AS b, 1.5 AS c UNION ALL SELECT 2, NULL, 2.5 UNION ALL SELECT 3, 'z', 3.5"

    @Test func recordsOfACursor() throws {
        let dbQueue = try DatabaseQueue()
        let pairs = try dbQueue.read { try Pair.fetchAll($0, sql: sql) }
        #expect(pairs == [Pair(a: 1, b: "x"), Pair(a: 2, b: nil), Pair(a: 3, b: "z")])
        let reversed = try dbQueue.read { try ReversedPair.fetchAll($0, sql: sql) }
        #expect(reversed == [ReversedPair(b: "x", a: 1), ReversedPair(b: nil, a: 2), ReversedPair(b: "z", a: 3)])
    }

    @Test func keysNotNamedAfterTheirCase() throws {
        let records = try fetchInMemory(Renamed.self, sql: sql)
        #expect(
            records == [Renamed(first: "x", second: 1), Renamed(first: nil, second: 2), Renamed(first: "z", second: 3)])
    }

    @Test func keysThatAreNotPlainEnums() throws {
        let records = try fetchInMemory(Dynamic.self, sql: sql)
        #expect(records == [Dynamic(a: 1, b: "x"), Dynamic(a: 2, b: nil), Dynamic(a: 3, b: "z")])
    }

    @Test func recordTypesAlternatingOnOneStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT 1 AS a, 'x' AS b")
            for _ in 0..<3 {
                #expect(try Pair.fetchOne(statement) == Pair(a: 1, b: "x"))
                #expect(try Renamed.fetchOne(statement) == Renamed(first: "x", second: 1))
                #expect(try ReversedPair.fetchOne(statement) == ReversedPair(b: "x", a: 1))
            }
        }
    }

    @Test func columnNamesAreCaseInsensitive() throws {
        let dbQueue = try DatabaseQueue()
        let pairs = try dbQueue.read { try Pair.fetchAll($0, sql: "SELECT 1 AS A, 'x' AS B UNION ALL SELECT 2, 'y'") }
        #expect(pairs == [Pair(a: 1, b: "x"), Pair(a: 2, b: "y")])
    }

    @Test func leftmostDuplicateColumnWins() throws {
        let dbQueue = try DatabaseQueue()
        let pairs = try dbQueue.read {
            try Pair.fetchAll($0, sql: "SELECT 1 AS a, 'x' AS b, 9 AS a UNION ALL SELECT 2, 'y', 8")
        }
        #expect(pairs == [Pair(a: 1, b: "x"), Pair(a: 2, b: "y")])
    }

    @Test func nestedRecordOfTheSameRow() throws {
        let dbQueue = try DatabaseQueue()
        let wrappers = try dbQueue.read { try Wrapper.fetchAll($0, sql: sql) }
        #expect(
            wrappers == [
                Wrapper(pair: Pair(a: 1, b: "x"), c: 1.5), Wrapper(pair: Pair(a: 2, b: nil), c: 2.5),
                Wrapper(pair: Pair(a: 3, b: "z"), c: 3.5),
            ])
    }

    @Test func recordTypesSharingCodingKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT 1 AS a, 'x' AS b")
            #expect(try Pair.fetchOne(statement) == Pair(a: 1, b: "x"))
            #expect(try SnakePair.fetchOne(statement) == SnakePair(a: 1, b: "x"))
            #expect(try Pair.fetchOne(statement) == Pair(a: 1, b: "x"))
        }
    }

    @Test func nullInALaterRowThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let cursor = try Pair.fetchCursor(db, sql: "SELECT 1 AS a, 'x' AS b UNION ALL SELECT NULL, 'y'")
            #expect(try cursor.next() == Pair(a: 1, b: "x"))
            #expect(throws: RowDecodingError.self) { try cursor.next() }
        }
    }

    @Test func missingColumnThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT 1 AS b")
            #expect(throws: RowDecodingError.self) { try Pair.fetchAll(statement) }
        }
    }
}
