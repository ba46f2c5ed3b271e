import Foundation
import Strata
import StrataTestSupport
import Testing

/// `Encodable` records reuse an encoder per thread and record type, with
/// the keyed container it gave and the columns it saw each key write: each
/// record must still store exactly what it encodes, whatever the previous
/// record of its type (or another type) did.
@Suite struct EncodableEncoderReuseTests {
    /// Skips `b` when it is nil, and writes `c` before `a` when `reversed`.
    struct Item: Encodable, PersistableRecord {
        static let databaseTableName = "item"
        var a: Int
        var b: String?
        var c: Int
        var reversed = false

        enum CodingKeys: String, CodingKey { case a, b, c }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if reversed {
                try container.encode(c, forKey: .c)
                try container.encode(a, forKey: .a)
            } else {
                try container.encode(a, forKey: .a)
                try container.encode(c, forKey: .c)
            }
            if let b {
                try container.encode(b, forKey: .b)
            }
        }
    }

    /// The same table, with synthesized encoding.
    struct Other: Encodable, PersistableRecord {
        static let databaseTableName = "item"
        var a: Int
        var b: String
        var c: Int
    }

    /// The same table, with keys whose raw values name other columns.
    struct Renamed: Encodable, PersistableRecord {
        static let databaseTableName = "item"
        var first: Int
        var last: Int
        enum CodingKeys: String, CodingKey {
            case first = "c"
            case last = "a"
        }
    }

    /// Writes `a` and `c` with one key type, and `b` with another, through
    /// a value that encodes itself into the record's encoder.
    struct TwoKeyTypes: Encodable, PersistableRecord {
        static let databaseTableName = "item"
        var a: Int
        var b: String
        var c: Int

        enum CodingKeys: String, CodingKey { case a, c }
        struct Extra: Encodable {
            var b: String
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(a, forKey: .a)
            try Extra(b: b).encode(to: encoder)
            try container.encode(c, forKey: .c)
        }
    }

    /// Writes `a`, then what `twist` says, then `c`: a nested container,
    /// which is not a column (an encoding error), or the dictionary of
    /// another record of its own type, so that two records of one type
    /// encode at once.
    struct Twisted: Encodable, PersistableRecord {
        enum Twist { case none, fails, reentrant }
        static let databaseTableName = "item"
        var a: Int
        var c: Int
        var twist: Twist

        enum CodingKeys: String, CodingKey { case a, b, c }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(a, forKey: .a)
            switch twist {
            case .none:
                break
            case .fails:
                _ = container.nestedUnkeyedContainer(forKey: .b)
            case .reentrant:
                let dictionary = try Twisted(a: a + 100, c: c + 100, twist: .none).databaseDictionary
                #expect(dictionary == ["a": (a + 100).databaseValue, "c": (c + 100).databaseValue])
            }
            try container.encode(c, forKey: .c)
        }
    }

    @Test func skippedKeysAndVaryingOrder() throws {
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            try Item(a: 1, b: "x", c: 10).insert(db)
            try Item(a: 2, b: "y", c: 20).insert(db)
            try Item(a: 3, b: nil, c: 30).insert(db)
            try Item(a: 4, b: "z", c: 40, reversed: true).insert(db)
            try Item(a: 5, b: "w", c: 50).insert(db)
            try Item(a: 6, b: nil, c: 60, reversed: true).insert(db)
            try Item(a: 7, b: "v", c: 70).insert(db)
        }
        #expect(
            try ItemTable.rows(dbQueue) == [
                "1 x 10", "2 y 20", "3 default 30", "4 z 40", "5 w 50", "6 default 60", "7 v 70",
            ])
        #expect(try Item(a: 8, b: nil, c: 80, reversed: true).databaseDictionary.keys.sorted() == ["a", "c"])
    }

    @Test func recordTypesTakeTurns() throws {
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            for i in 0..<3 {
                try Item(a: i, b: "i", c: 10 * i).insert(db)
                try Other(a: i, b: "o", c: 10 * i).insert(db)
                try Renamed(first: 10 * i, last: i).insert(db)
                try TwoKeyTypes(a: i, b: "t", c: 10 * i).insert(db)
            }
        }
        #expect(
            try ItemTable.rows(dbQueue) == [
                "0 i 0", "0 o 0", "0 default 0", "0 t 0",
                "1 i 10", "1 o 10", "1 default 10", "1 t 10",
                "2 i 20", "2 o 20", "2 default 20", "2 t 20",
            ])
        #expect(
            try TwoKeyTypes(a: 1, b: "t", c: 2).databaseDictionary
                == ["a": 1.databaseValue, "b": "t".databaseValue, "c": 2.databaseValue])
    }

    @Test func anEncodingErrorStaysWithItsRecord() throws {
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            try Twisted(a: 1, c: 10, twist: .none).insert(db)
            #expect(throws: EncodingError.self) { try Twisted(a: 2, c: 20, twist: .fails).insert(db) }
            try Twisted(a: 3, c: 30, twist: .none).insert(db)
        }
        let values = try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM item ORDER BY rowid") }
        #expect(values == [1, 3])
    }

    @Test func twoRecordsOfOneTypeAtOnce() throws {
        let dbQueue = try ItemTable.makeDatabase()
        try dbQueue.write { db in
            try Twisted(a: 1, c: 10, twist: .reentrant).insert(db)
            try Twisted(a: 2, c: 20, twist: .none).insert(db)
            try Twisted(a: 3, c: 30, twist: .reentrant).insert(db)
        }
        #expect(try ItemTable.rows(dbQueue) == ["1 default 10", "2 default 20", "3 default 30"])
    }

    @Test func threadsEncodeAtOnce() async throws {
        let dictionaries = try await withThrowingTaskGroup(of: [[String: DatabaseValue]].self) { group in
            for task in 0..<4 {
                group.addTask {
                    try (0..<200).map { i in try Other(a: task, b: "\(i)", c: i).databaseDictionary }
                }
            }
            var result: [[[String: DatabaseValue]]] = []
            for try await dictionaries in group {
                result.append(dictionaries)
            }
            return result
        }
        #expect(dictionaries.count == 4)
        for list in dictionaries {
            let task = list[0]["a"]
            for (i, dictionary) in list.enumerated() {
                #expect(dictionary == ["a": task!, "b": "\(i)".databaseValue, "c": i.databaseValue])
            }
        }
    }
}
