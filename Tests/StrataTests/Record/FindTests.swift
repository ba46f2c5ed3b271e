import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Player: Decodable, Identifiable, FetchableRecord, TableRecord, Equatable {
    var id: Int64
    var name: String
}

private struct Country: Decodable, Identifiable, FetchableRecord, TableRecord {
    var isoCode: String
    var name: String
    var id: String { isoCode }
}

private struct Citizenship: Decodable, FetchableRecord, TableRecord {
    var citizenId: Int64
    var countryCode: String
}

/// A table without explicit primary key: the hidden rowid is the key.
private struct Event: Decodable, Identifiable, FetchableRecord, TableRecord {
    static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
    var id: Int64?
    var message: String

    enum CodingKeys: String, CodingKey {
        case id = "rowid"
        case message
    }
}

private struct PlainEvent: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "event"
    var message: String
}

private struct Captain: Decodable, Identifiable, FetchableRecord, TableRecord {
    var id: String
    var name: String
    var teamId: String
}

private struct GameSchemaSource: DatabaseSchemaSource {
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        ["id"]
    }
}

/// `find`, hidden rowids, and records of views.
struct FindTests {
    private func database(configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE);
                    INSERT INTO player VALUES (1, 'Arthur', 'arthur@example.com'), (2, 'Barbara', NULL);
                    CREATE TABLE country (isoCode TEXT PRIMARY KEY, name TEXT NOT NULL);
                    INSERT INTO country VALUES ('FR', 'France');
                    CREATE TABLE citizenship (citizenId INTEGER, countryCode TEXT, PRIMARY KEY (citizenId, countryCode));
                    INSERT INTO citizenship VALUES (1, 'FR');
                    CREATE TABLE event (message TEXT, date DATETIME);
                    INSERT INTO event (message) VALUES ('foo'), ('bar');
                    CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE teamPlayer (id TEXT PRIMARY KEY, name TEXT NOT NULL, teamId TEXT REFERENCES team,
                        isCaptain BOOLEAN NOT NULL);
                    INSERT INTO team VALUES ('red', 'Red'), ('blue', 'Blue');
                    INSERT INTO teamPlayer VALUES ('alice', 'Alice', 'red', 1), ('bob', 'Bob', 'blue', 1),
                        ('craig', 'Craig', 'blue', 0);
                    CREATE VIEW captain AS SELECT id, name, teamId FROM teamPlayer WHERE isCaptain AND teamId IS NOT NULL;
                    """)
        }
        return dbQueue
    }

    @Test func findByID() throws {
        let dbQueue = try database()
        let author = try dbQueue.read { db in try Player.find(db, id: 1) }
        #expect(author == Player(id: 1, name: "Arthur"))
        let france = try dbQueue.read { db in try Country.find(db, id: "FR") }
        #expect(france.name == "France")
    }

    @Test func findMissingID() throws {
        let dbQueue = try database()
        #expect {
            try dbQueue.read { db in _ = try Player.find(db, id: 42) }
        } throws: { error in
            guard case RecordError.recordNotFound(databaseTableName: "player", key: let key) = error else {
                return false
            }
            return key == ["id": 42.databaseValue] && "\(error)" == "Key not found in table player: [id:42]"
        }
        #expect {
            try dbQueue.read { db in _ = try Country.find(db, id: "XX") }
        } throws: { error in
            "\(error)" == #"Key not found in table country: [isoCode:"XX"]"#
        }
    }

    @Test func findByKey() throws {
        let dbQueue = try database()
        try dbQueue.read { db throws in
            #expect(try Player.find(db, key: 2).name == "Barbara")
            #expect(try Player.find(db, key: ["email": "arthur@example.com"]).name == "Arthur")
            #expect(try Citizenship.find(db, key: ["citizenId": 1, "countryCode": "FR"]).countryCode == "FR")
        }
    }

    @Test func findMissingKey() throws {
        let dbQueue = try database()
        #expect {
            try dbQueue.read { db in _ = try Player.find(db, key: 3) }
        } throws: { error in
            "\(error)" == "Key not found in table player: [id:3]"
        }
        #expect {
            try dbQueue.read { db in _ = try Citizenship.find(db, key: ["citizenId": 2, "countryCode": "FR"]) }
        } throws: { error in
            guard case RecordError.recordNotFound(databaseTableName: "citizenship", key: let key) = error else {
                return false
            }
            return key == ["citizenId": 2.databaseValue, "countryCode": "FR".databaseValue]
                && "\(error)" == #"Key not found in table citizenship: [citizenId:2 countryCode:"FR"]"#
        }
        #expect {
            try dbQueue.read { db in _ = try Player.find(db, key: ["email": "nobody@example.com"]) }
        } throws: { error in
            "\(error)" == #"Key not found in table player: [email:"nobody@example.com"]"#
        }
    }

    @Test func findInUnknownTable() throws {
        let dbQueue = try DatabaseQueue()
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in _ = try Player.find(db, id: 1) }
        }
    }

    @Test func hiddenRowID() throws {
        let dbQueue = try database()
        let log = SQLLog()
        try dbQueue.read { db throws in
            db.trace { log.append("\($0)") }
            let event = try Event.fetchOne(db, id: 1)
            #expect(event?.id == 1)
            #expect(event?.message == "foo")
            #expect(log.statements().last == #"SELECT *, "rowid" FROM "event" WHERE "rowid" = ?"#)
            #expect(try Event.find(db, id: 2).message == "bar")
            #expect(try Event.fetchAll(db).map(\.id) == [1, 2])
            #expect(try PlainEvent.fetchOne(db, key: 2)?.message == "bar")
            db.trace(nil)
        }
        #expect {
            try dbQueue.read { db in _ = try PlainEvent.find(db, key: 3) }
        } throws: { error in
            "\(error)" == "Key not found in table event: [rowid:3]"
        }
    }

    @Test func viewRecordsWithoutSchemaSource() throws {
        let dbQueue = try database()
        let captains = try dbQueue.read { db in try Captain.fetchAll(db) }
        #expect(captains.map(\.name).sorted() == ["Alice", "Bob"])
        #expect(try dbQueue.read { db in try Captain.fetchCount(db) } == 2)
        #expect {
            try dbQueue.read { db in _ = try Captain.find(db, id: "bob") }
        } throws: { error in
            error is DatabaseError && "\(error)".contains("captain")
        }
    }

    @Test func viewRecordsWithSchemaSource() throws {
        var config = Configuration()
        config.schemaSource = GameSchemaSource()
        let dbQueue = try database(configuration: config)
        try dbQueue.read { db throws in
            let captains = try Captain.orderByPrimaryKey().fetchAll(db)
            #expect(captains.map(\.id) == ["alice", "bob"])
            let alice = try Captain.find(db, id: "alice")
            #expect(alice.teamId == "red")
            #expect(try Captain.fetchAll(db, ids: ["bob", "craig"]).map(\.name) == ["Bob"])
        }
        #expect {
            try dbQueue.read { db in _ = try Captain.find(db, id: "craig") }
        } throws: { error in
            "\(error)" == #"Key not found in table captain: [id:"craig"]"#
        }
    }
}
