import Foundation
import Strata
import StrataTestSupport
import Testing

struct UUIDTests {
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    static let bytes: [UInt8] = [
        0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F,
    ]

    @Test func storesSixteenByteBlob() throws {
        #expect(Self.uuid.databaseValue == Data(Self.bytes).databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Self.uuid]) == "blob")
            #expect(try Int.fetchOne(db, sql: "SELECT length(?)", arguments: [Self.uuid]) == 16)
            #expect(
                try String.fetchOne(db, sql: "SELECT hex(?)", arguments: [Self.uuid])
                    == "E621E1F8C36C495A93FC0C247A3E6E5F")
        }
    }

    static let decodable: [DatabaseValue] = [
        Data(bytes).databaseValue,
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F".databaseValue,
        "e621e1f8-c36c-495a-93fc-0c247a3e6e5f".databaseValue,
        "e621E1F8-c36c-495A-93fc-0C247A3E6E5F".databaseValue,
    ]

    @Test(arguments: decodable)
    func decodes(dbValue: DatabaseValue) throws {
        #expect(UUID.fromDatabaseValue(dbValue) == Self.uuid)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let decoded = try decodeBothWays(UUID.self, db, sql: "SELECT ?", arguments: [dbValue])
            #expect(decoded.agree)
            #expect(decoded.fast == Self.uuid)
        }
    }

    static let invalid: [DatabaseValue] = [
        .null, 1.databaseValue, 1.5.databaseValue, Data().databaseValue, Data(bytes.dropLast()).databaseValue,
        Data(bytes + [0]).databaseValue, "".databaseValue, "E621E1F8C36C495A93FC0C247A3E6E5F".databaseValue,
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5".databaseValue, "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF".databaseValue,
        "G621E1F8-C36C-495A-93FC-0C247A3E6E5F".databaseValue, "E621E1F8+C36C-495A-93FC-0C247A3E6E5F".databaseValue,
        "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}".databaseValue, "E621E1F8-C36C-495A-93FC-0C247A3E6E5🙂".databaseValue,
    ]

    @Test(arguments: invalid)
    func invalidValuesDoNotDecode(dbValue: DatabaseValue) throws {
        #expect(UUID.fromDatabaseValue(dbValue) == nil)
        #expect(try decodesInNoWay(UUID.self, dbValue))
    }

    @Test func roundTripThroughTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id BLOB PRIMARY KEY)")
            let uuids = (0..<20).map { _ in UUID() }
            for uuid in uuids {
                try db.execute(sql: "INSERT INTO player VALUES (?)", arguments: [uuid])
            }
            #expect(try Set(UUID.fetchAll(db, sql: "SELECT id FROM player")) == Set(uuids))
            #expect(try UUID.fetchSet(db, sql: "SELECT id FROM player") == Set(uuids))
            let row = try Row.fetchOne(db, sql: "SELECT id FROM player WHERE id = ?", arguments: [uuids[3]])!
            #expect(row["id"] as UUID == uuids[3])
        }
    }
}
