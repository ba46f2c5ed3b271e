import Foundation
import Strata
import StrataTestSupport
import Testing

/// A wrapper like pointfreeco's Tagged, declared here to test the documented
/// conditional conformances.
struct Wrapped<Tag, RawValue>: RawRepresentable {
    var rawValue: RawValue
    init(rawValue: RawValue) { self.rawValue = rawValue }
}

extension Wrapped: SQLExpressible where RawValue: SQLExpressible {}
extension Wrapped: StatementBinding where RawValue: StatementBinding {}
extension Wrapped: StatementColumnConvertible where RawValue: StatementColumnConvertible {}
extension Wrapped: DatabaseValueConvertible where RawValue: DatabaseValueConvertible {}
extension Wrapped: Equatable where RawValue: Equatable {}

struct WrapperTests {
    enum PlayerTag {}
    typealias PlayerID = Wrapped<PlayerTag, String>

    @Test func wrappersWorkEverywhere() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id TEXT PRIMARY KEY, name TEXT)")
            let id = PlayerID(rawValue: "arthur")
            try db.execute(sql: "INSERT INTO player VALUES (?, ?)", arguments: [id, "Arthur"])
            #expect(try PlayerID.fetchOne(db, sql: "SELECT id FROM player") == id)
            #expect(try PlayerID.fetchAll(db, sql: "SELECT id FROM player") == [id])
            let name = try String.fetchOne(db, literal: "SELECT name FROM player WHERE id = \(id)")
            #expect(name == "Arthur")
            let row = try Row.fetchOne(db, sql: "SELECT id FROM player")!
            #expect(row["id"] as PlayerID == id)
        }
    }
}
