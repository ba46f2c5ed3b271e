import Foundation
import Strata
import StrataTestSupport
import Testing

// `init(row:)` decodes a `Decodable` record through a decoder of its own,
// which does not retain the row: what the record asks of the decoder other
// than its keyed container (a single value, an unkeyed container, its coding
// path and user info, two keyed containers) must answer as before, record
// after record of a cursor, and for rows that are not a cursor's.

private let userInfoKey = CodingUserInfoKey(rawValue: "topLevel")!

/// Decodes the leftmost column as a single value.
private struct Leftmost: Decodable, FetchableRecord, Equatable {
    var value: Int
    init(value: Int) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Int.self) }
}

/// Asks for an unkeyed container, which a row is not.
private struct Listed: Decodable, FetchableRecord {
    init(from decoder: any Decoder) throws { _ = try decoder.unkeyedContainer() }
}

/// Reads what the decoder says of itself, and two keyed containers of two key types.
private struct Inspected: Decodable, FetchableRecord, Equatable {
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [userInfoKey: "row"] }
    enum FirstKeys: String, CodingKey { case a }
    enum SecondKeys: String, CodingKey { case b }
    var a: Int
    var b: String?
    var pathCount: Int
    var info: String?

    init(a: Int, b: String?) {
        self.a = a
        self.b = b
        pathCount = 0
        info = "row"
    }

    init(from decoder: any Decoder) throws {
        a = try decoder.container(keyedBy: FirstKeys.self).decode(Int.self, forKey: .a)
        b = try decoder.container(keyedBy: SecondKeys.self).decodeIfPresent(String.self, forKey: .b)
        pathCount = decoder.codingPath.count
        info = decoder.userInfo[userInfoKey] as? String
    }
}

@Suite struct DecodableTopLevelDecoderTests {
    private let sql = "SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, NULL UNION ALL SELECT 3, 'z'"

    @Test func singleValueOfEachRow() throws {
        let records = try fetchInMemory(Leftmost.self, sql: sql)
        #expect(records == [Leftmost(value: 1), Leftmost(value: 2), Leftmost(value: 3)])
    }

    @Test func unkeyedContainerThrows() throws {
        let error = try #require(throws: DecodingError.self) { try fetchInMemory(Listed.self, sql: sql) }
        guard case .typeMismatch(let type, let context) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier([Any].self))
        #expect(context.codingPath.isEmpty)
        #expect(context.debugDescription == "a database row can not be decoded as a collection")
    }

    @Test func pathUserInfoAndTwoKeyTypes() throws {
        let records = try fetchInMemory(Inspected.self, sql: sql)
        #expect(records == [Inspected(a: 1, b: "x"), Inspected(a: 2, b: nil), Inspected(a: 3, b: "z")])
    }

    @Test func rowsThatAreNotACursors() throws {
        let copied = try inMemoryDatabase().read { try Row.fetchAll($0, sql: sql) }
        #expect(try copied.map { try Inspected(row: $0) }.map(\.a) == [1, 2, 3])
        #expect(try Inspected(row: Row(["a": 4, "b": "w"])) == Inspected(a: 4, b: "w"))
        #expect(try Leftmost(row: Row(["a": 5])) == Leftmost(value: 5))
        #expect(throws: RowDecodingError.self) { try Inspected(row: Row(["b": "w"])) }
    }
}
