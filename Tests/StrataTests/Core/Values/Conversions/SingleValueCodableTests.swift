import Foundation
import Strata
import StrataTestSupport
import Testing

// Item 1: a Codable value whose encoding is a single value is stored as that
// plain value; keyed and unkeyed encodings become JSON text.

/// A wrapper around a string, coded as a single value.
private struct Name: Codable, Equatable, DatabaseValueConvertible {
    var rawName: String

    init(_ rawName: String) { self.rawName = rawName }

    init(from decoder: any Decoder) throws {
        rawName = try decoder.singleValueContainer().decode(String.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawName)
    }
}

/// A wrapper around a wrapper, around a number.
private struct Level: Codable, Equatable, DatabaseValueConvertible {
    var value: Inner
    struct Inner: Codable, Equatable {
        var number: Int
        init(from decoder: any Decoder) throws { number = try decoder.singleValueContainer().decode(Int.self) }
        init(number: Int) { self.number = number }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(number)
        }
    }

    init(_ number: Int) { value = Inner(number: number) }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Inner.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A keyed value: JSON.
private struct Point: Codable, Equatable, DatabaseValueConvertible {
    var x: Int
    var y: Int
}

/// Only `Encodable`, around a date.
private struct Stamp: Encodable, DatabaseValueConvertible {
    var date: Date

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(date)
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Stamp? {
        Date.fromDatabaseValue(dbValue).map(Stamp.init(date:))
    }
}

struct SingleValueCodableTests {
    @Test func singleValuesAreStoredPlainly() throws {
        #expect(Name("Arthur").databaseValue == "Arthur".databaseValue)
        #expect(Level(3).databaseValue == 3.databaseValue)
        #expect(
            Stamp(date: Date(timeIntervalSince1970: 0)).databaseValue
                == "1970-01-01 00:00:00.000".databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (name, level)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [Name("Arthur"), Level(3)])
            #expect(try String.fetchOne(db, sql: "SELECT typeof(name) || typeof(level) FROM t") == "textinteger")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM t") == "Arthur")
        }
    }

    @Test func containersAreStoredAsJSON() throws {
        #expect(Point(x: 1, y: 2).databaseValue == #"{"x":1,"y":2}"#.databaseValue)
        #expect(Point.fromDatabaseValue(#"{"x":1,"y":2}"#.databaseValue) == Point(x: 1, y: 2))
    }

    @Test func decodingReadsThePlainValueFirst() throws {
        #expect(Name.fromDatabaseValue("Arthur".databaseValue) == Name("Arthur"))
        #expect(Name.fromDatabaseValue(Data("Arthur".utf8).databaseValue) == Name("Arthur"))
        #expect(Level.fromDatabaseValue(3.databaseValue) == Level(3))
        #expect(Level.fromDatabaseValue("x".databaseValue) == nil)
        #expect(Name.fromDatabaseValue(.null) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Name.fetchOne(db, sql: "SELECT 'Barbara'") == Name("Barbara"))
            #expect(try Level.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT 2") == [Level(1), Level(2)])
            #expect(try Name?.fetchOne(db, sql: "SELECT NULL") == .some(nil))
        }
    }
}
