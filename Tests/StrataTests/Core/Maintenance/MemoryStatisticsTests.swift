import Foundation
import Strata
import StrataSQLite
import StrataTestSupport
import Testing

@Suite("SQLite's memory statistics", .serialized)
struct MemoryStatisticsTests {
    @Test("Strata turns SQLite's memory statistics off before its first connection opens")
    func statisticsAreOff() throws {
        #expect(Database.keepsSQLiteMemoryStatistics == false)
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.execute(sql: "INSERT INTO t VALUES (randomblob(100000))")
        }
        // SQLite counts nothing: the connection above allocated memory.
        #expect(sqlite3_memory_used() == 0)
        #expect(sqlite3_memory_highwater(0) == 0)
    }

    @Test("Asking for the statistics once SQLite is initialized has no effect")
    func settingAfterInitializationHasNoEffect() throws {
        _ = try DatabaseQueue()
        Database.keepsSQLiteMemoryStatistics = true
        defer { Database.keepsSQLiteMemoryStatistics = false }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        #expect(sqlite3_memory_used() == 0)
    }
}
