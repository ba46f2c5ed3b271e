import Foundation
import Strata
import StrataTestSupport
import Testing

struct DatabaseErrorTests {
    func makePetQueue(publicArguments: Bool = false) throws -> DatabaseQueue {
        var config = Configuration()
        config.publicStatementArguments = publicArguments
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(
                sql: """
                    CREATE TABLE master (id INTEGER PRIMARY KEY);
                    CREATE TABLE pet (masterId INTEGER REFERENCES master(id), name TEXT UNIQUE);
                    """)
        }
        return dbQueue
    }

    @Test func foreignKeyViolation() throws {
        let dbQueue = try makePetQueue()
        do {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO pet (masterId, name) VALUES (?, ?)", arguments: [1, "Bobby"])
            }
            Issue.record("Expected error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error.message == "FOREIGN KEY constraint failed")
            #expect(error.sql == "INSERT INTO pet (masterId, name) VALUES (?, ?)")
            #expect(error.arguments == [1, "Bobby"])
            #expect(
                error.description
                    == "SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT INTO pet (masterId, name) VALUES (?, ?)`"
            )
            #expect(error.expandedDescription.contains("with arguments [1, \"Bobby\"]"))
        }
    }

    @Test func publicArgumentsAppearInDescriptions() throws {
        let dbQueue = try makePetQueue(publicArguments: true)
        do {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO pet (masterId, name) VALUES (?, ?)", arguments: [1, "Bobby"])
            }
        } catch let error as DatabaseError {
            #expect(error.description.hasSuffix("with arguments [1, \"Bobby\"]"))
        }
    }

    @Test func patternMatching() throws {
        let dbQueue = try makePetQueue()
        func insertDuplicate() throws {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO pet (name) VALUES ('a'); INSERT INTO pet (name) VALUES ('a')")
            }
        }
        do {
            try insertDuplicate()
        } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
            Issue.record("Wrong code")
        } catch DatabaseError.SQLITE_CONSTRAINT {
            // extended code SQLITE_CONSTRAINT_UNIQUE matches its primary code
        }
        do {
            try insertDuplicate()
        } catch let error as DatabaseError {
            switch error.extendedResultCode {
            case ResultCode.SQLITE_CONSTRAINT_UNIQUE: break
            default: Issue.record("Wrong code")
            }
            switch error {
            case DatabaseError.SQLITE_CONSTRAINT: break
            default: Issue.record("Wrong code")
            }
        }
        #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY ~= ResultCode.SQLITE_CONSTRAINT))
        #expect(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY.primaryResultCode == .SQLITE_CONSTRAINT)
    }

    @Test func initializers() {
        let error = DatabaseError(message: "invalid")
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.description == "SQLite error 1: invalid")
        #expect(DatabaseError(resultCode: .SQLITE_ABORT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_INTERRUPT).isInterruptionError)
        #expect(!DatabaseError(resultCode: .SQLITE_BUSY).isInterruptionError)
        #expect(DatabaseError.errorDomain == "GRDB.DatabaseError")
        #expect(DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY).errorCode == 787)
    }

    @Test func missingFileOpenedReadOnly() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.readonly = true
        #expect {
            try DatabaseQueue(path: directory.path("missing.sqlite"), configuration: config)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_CANTOPEN
        }
    }

    @Test func fileThatIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("garbage.sqlite")
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect {
            try DatabaseQueue(path: path)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_NOTADB
        }
    }

    @Test func writingToAReadOnlyDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        var config = Configuration()
        config.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        #expect {
            try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_READONLY
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func busyDatabaseWithTimeout() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        var config = Configuration()
        config.busyMode = .timeout(0.1)
        let a = try DatabaseQueue(path: path, configuration: config)
        let b = try DatabaseQueue(path: path, configuration: config)
        try a.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        try a.inDatabase { db throws in
            try db.beginTransaction(.exclusive)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            let start = Date()
            #expect {
                try b.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
            }
            #expect(Date().timeIntervalSince(start) >= 0.09)
            try db.commit()
        }
        // Nothing committed is lost
        #expect(try b.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func busyCallback() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        var config = Configuration()
        config.busyMode = .callback { count in count < 3 }
        let a = try DatabaseQueue(path: path)
        let b = try DatabaseQueue(path: path, configuration: config)
        try a.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        try a.inDatabase { db throws in
            try db.beginTransaction(.exclusive)
            #expect(throws: DatabaseError.self) {
                try b.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            }
            try db.rollback()
        }
    }

    @Test func doubleQuotedStringLiterals() throws {
        let dbQueue = try inMemoryDatabase("CREATE TABLE player (name TEXT)")
        #expect {
            try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = \"Arthur\"") }
        } throws: { error in
            (error as? DatabaseError)?.message?.contains("no such column") == true
        }
        var config = Configuration()
        config.acceptsDoubleQuotedStringLiterals = true
        let lenient = try DatabaseQueue(configuration: config)
        try lenient.write { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT)")
            try db.execute(sql: "UPDATE player SET name = \"Arthur\"")
        }
    }

    @Test func invalidUTF8IsRepaired() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let string = try String.fetchOne(db, sql: "SELECT CAST(x'41FF42' AS TEXT)")
            #expect(string == "A\u{FFFD}B")
        }
    }

    @Test func integerOverflowIsADecodingError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try UInt8.fetchOne(db, sql: "SELECT 256") }
            #expect(throws: RowDecodingError.self) { try Int8.fetchAll(db, sql: "SELECT -129") }
            #expect(throws: RowDecodingError.self) { try Int.fetchAll(db, sql: "SELECT NULL") }
            #expect(try Int?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 1") == [nil, 1])
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(UInt8.fromDatabaseValue(256.databaseValue) == nil)
        }
    }
}
