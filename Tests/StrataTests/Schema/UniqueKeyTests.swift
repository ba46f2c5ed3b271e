import Foundation
import Strata
import StrataTestSupport
import Testing

/// `table(_:hasUniqueKey:)`: primary keys, unique indexes, rowids, views.
struct UniqueKeyTests {
    @Test("Unique keys: exact keys, supersets, rowid, and views without schema source")
    func hasUniqueKey() throws {
        try inMemoryWrite(
            """
            CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT, a, b);
            CREATE UNIQUE INDEX player_ab ON player(a, b);
            CREATE TABLE event (message TEXT);
            CREATE TABLE pair (x, y, PRIMARY KEY (x, y)) WITHOUT ROWID;
            CREATE VIEW playerView AS SELECT * FROM player;
            """
        ) { db throws in
            #expect(try db.table("player", hasUniqueKey: ["id"]))
            #expect(try db.table("player", hasUniqueKey: ["email"]))
            #expect(try db.table("player", hasUniqueKey: ["EMAIL", "name"]))
            #expect(try db.table("player", hasUniqueKey: ["a", "b"]))
            #expect(try db.table("player", hasUniqueKey: ["b", "a", "name"]))
            #expect(try !db.table("player", hasUniqueKey: ["a"]))
            #expect(try !db.table("player", hasUniqueKey: ["name"]))
            #expect(try db.table("player", hasUniqueKey: ["rowid"]))
            #expect(try db.table("event", hasUniqueKey: ["rowid"]))
            #expect(try db.table("event", hasUniqueKey: ["rowid", "message"]))
            #expect(try !db.table("event", hasUniqueKey: ["message"]))
            #expect(try db.table("pair", hasUniqueKey: ["x", "y"]))
            #expect(try !db.table("pair", hasUniqueKey: ["rowid"]))
            #expect(try !db.table("playerView", hasUniqueKey: ["id"]))
            #expect(throws: DatabaseError.self) { try db.table("missing", hasUniqueKey: ["id"]) }
        }
    }
}
