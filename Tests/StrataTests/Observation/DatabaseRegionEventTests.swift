import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite("DatabaseRegion and events")
struct DatabaseRegionEventTests {
    @Test("isModified(byEventsOfKind:) checks tables and columns")
    func eventKinds() throws {
        let dbQueue = try makePlayerAndTeamDatabase()
        try dbQueue.write { db in
            let region = try db.makeStatement(sql: "SELECT score FROM player").databaseRegion
            #expect(region.isModified(byEventsOfKind: .insert(tableName: "player")))
            #expect(region.isModified(byEventsOfKind: .delete(tableName: "PLAYER")))
            #expect(region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["score"])))
            #expect(!region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name"])))
            #expect(!region.isModified(byEventsOfKind: .insert(tableName: "team")))
            #expect(DatabaseRegion.fullDatabase.isModified(byEventsOfKind: .insert(tableName: "team")))
            #expect(!DatabaseRegion().isModified(byEventsOfKind: .insert(tableName: "team")))
        }
    }

    @Test("isModified(by:) checks rowids of primary key requests")
    func events() throws {
        let dbQueue = try inMemoryDatabase("CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
        let region = try dbQueue.read { db in try Table("player").filter(key: 1).databaseRegion(db) }
        #expect(region.description == "player(id,name)[1]")
        let modifications = LockedBox<[Bool]>([])
        let observer = ClosureObserver(
            observes: { region.isModified(byEventsOfKind: $0) },
            didChange: { modifications.append(region.isModified(by: $0)) })
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2)")
        }
        #expect(modifications.value == [true, false])
    }
}

@Suite("Request regions")
struct RequestRegionTests {
    @Test("Primary key filters track rowids")
    func rowIDs() throws {
        let dbQueue = try inMemoryDatabase(
            """
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE document (content TEXT);
            CREATE TABLE country (code TEXT PRIMARY KEY);
            """)
        try dbQueue.read { db throws in
            #expect(try Table("player").filter(keys: [1, 2]).databaseRegion(db).description == "player(id,name)[1,2]")
            #expect(
                try Table("player").filter(key: 1).filter(Column("name") == "a").databaseRegion(db).description
                    == "player(id,name)[1]")
            #expect(
                try Table("player").filter(Column("name") == "a").databaseRegion(db).description == "player(id,name)")
            #expect(try Table("document").filter(key: 3).databaseRegion(db).description == "document(content,rowid)[3]")
            #expect(try Table("country").filter(key: "FR").databaseRegion(db).description == "country(code)")
        }
    }
}
