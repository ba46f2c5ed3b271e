import Foundation
import Strata
import StrataTestSupport
import Testing

private struct AppConfiguration: Codable {
    // Support for the single row guarantee
    private var id = 1

    // The stored properties
    private var storedFlag: Bool?

    init(storedFlag: Bool?) {
        self.storedFlag = storedFlag
    }
}

extension AppConfiguration {
    var flag: Bool {
        get { storedFlag ?? true /* the default value */ }
        set { storedFlag = newValue }
    }

    mutating func resetFlag() {
        storedFlag = nil
    }
}

extension AppConfiguration {
    /// The default configuration
    static let `default` = AppConfiguration(storedFlag: nil)
}

extension AppConfiguration: FetchableRecord, PersistableRecord {
    func willUpdate(_ db: Database, columns: Set<String>) throws {
        // Insert the default configuration if it does not exist yet.
        if try !exists(db) {
            try AppConfiguration.default.insert(db)
        }
    }

    static func find(_ db: Database) throws -> AppConfiguration {
        try fetchOne(db) ?? .default
    }
}

private func database() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("appConfiguration") { db in
        try db.create(table: "appConfiguration") { t in
            t.primaryKey("id", .integer, onConflict: .replace)
                .check { $0 == 1 }
            t.column("storedFlag", .boolean)
        }
    }
    try migrator.migrate(dbQueue)
    return dbQueue
}

private func storedFlags(_ db: Database) throws -> [Bool?] {
    try Row.fetchAll(db, sql: "SELECT id, storedFlag FROM appConfiguration").map { row in
        #expect(row["id"] == 1)
        return row["storedFlag"]
    }
}

struct SingleRowTableTests {
    @Test func readDefaultConfiguration() throws {
        let dbQueue = try database()
        let config = try dbQueue.read { db in
            try AppConfiguration.find(db)
        }
        #expect(config.flag)
    }

    @Test func updateChangesInsertsTheMissingRow() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            var config = try AppConfiguration.find(db)
            try config.updateChanges(db) {
                $0.flag = false
            }
            #expect(try storedFlags(db) == [false])
            #expect(try AppConfiguration.find(db).flag == false)
        }
    }

    @Test func allWaysToSave() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            var config = try AppConfiguration.find(db)
            config.flag = true
            try config.save(db)
            #expect(try storedFlags(db) == [true])
            config.flag = false
            try config.update(db)
            #expect(try storedFlags(db) == [false])
            config.flag = true
            try config.insert(db)
            #expect(try storedFlags(db) == [true])
            config.resetFlag()
            try config.upsert(db)
            #expect(try storedFlags(db) == [nil])
        }
    }

    @Test func updateOfAnEmptyTable() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            var config = AppConfiguration.default
            config.flag = false
            try config.update(db)
            #expect(try storedFlags(db) == [false])
        }
    }

    @Test func theTableRejectsOtherRows() throws {
        let dbQueue = try database()
        try dbQueue.write { db in
            do {
                try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (2, 1)")
                Issue.record("Expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
            }
        }
    }
}
