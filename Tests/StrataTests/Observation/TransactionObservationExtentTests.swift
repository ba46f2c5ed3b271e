import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite("Transaction observation extent")
struct TransactionObservationExtentTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try inMemoryDatabase("CREATE TABLE player (id INTEGER PRIMARY KEY)")
        return dbQueue
    }

    @Test("By default the database holds observers weakly")
    func observerLifetime() throws {
        let dbQueue = try makeQueue()
        weak var weakObserver: LoggingObserver?
        do {
            let observer = LoggingObserver()
            weakObserver = observer
            dbQueue.add(transactionObserver: observer)
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
            #expect(observer.log.count == 3)
        }
        #expect(weakObserver == nil)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
    }

    @Test(".nextTransaction retains the observer for one transaction")
    func nextTransaction() throws {
        let dbQueue = try makeQueue()
        weak var weakObserver: LoggingObserver?
        var log: [String] = []
        do {
            let observer = LoggingObserver()
            weakObserver = observer
            dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
        }
        #expect(weakObserver != nil)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            log = weakObserver?.log ?? []
        }
        #expect(log == ["change insert player 1"])
        #expect(weakObserver == nil)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
    }

    @Test(".databaseLifetime retains the observer until the connection closes")
    func databaseLifetime() throws {
        var dbQueue: DatabaseQueue? = try makeQueue()
        weak var weakObserver: LoggingObserver?
        do {
            let observer = LoggingObserver()
            weakObserver = observer
            dbQueue!.add(transactionObserver: observer, extent: .databaseLifetime)
        }
        try dbQueue!.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        try dbQueue!.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(weakObserver?.log.count == 6)
        dbQueue = nil
        #expect(weakObserver == nil)
    }

    @Test("remove(transactionObserver:) stops notifications, from a writer or a connection")
    func remove() throws {
        let dbQueue = try makeQueue()
        let observer = LoggingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        dbQueue.remove(transactionObserver: observer)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(observer.log.count == 3)

        dbQueue.inDatabase { db in db.add(transactionObserver: observer) }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        dbQueue.inDatabase { db in db.remove(transactionObserver: observer) }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(observer.log.count == 6)
    }

    @Test("A pool notifies the changes of its writer")
    func pool() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let observer = LoggingObserver()
        dbPool.add(transactionObserver: observer)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        #expect(observer.log == ["change insert player 1", "willCommit", "didCommit"])
    }
}
