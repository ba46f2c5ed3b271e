#if Macros
    import Strata
    import StrataTestSupport
    import Testing

    // A @DatabaseRecord record binds its columns straight to the INSERT
    // statement once the first insert of its type has told the columns: the
    // tests insert several records of each type, and compare each step with
    // a Codable twin of the same properties (SQL with its arguments,
    // callbacks, containers, errors, rows).

    /// Records with callbacks and a conflict policy, beside their Codable
    /// twins.
    enum CallbackRecords {
        /// What a record's callbacks saw.
        protocol Logged: MutablePersistableRecord {
            init(id: Int64?, name: String, log: [String])
            var id: Int64? { get set }
            var log: [String] { get set }
        }

        // The callbacks of both event types, so that they see the same.
        static func record<Event: Logged>(_ inserted: InsertionSuccess, in event: inout Event) {
            event.id = inserted.rowID
            let values = inserted.persistenceContainer.map { "\($0.0)=\($0.1)" }
            event.log.append("didInsert \(inserted.rowID) \(inserted.rowIDColumn ?? "-") \(values)")
        }

        @DatabaseRecord
        struct Event: Logged, FetchableRecord, MutablePersistableRecord {
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .abort)
            var id: Int64?
            var name: String
            @DatabaseTransient var log: [String] = []

            mutating func willInsert(_ db: Database) throws { log.append("willInsert") }
            mutating func didInsert(_ inserted: InsertionSuccess) { CallbackRecords.record(inserted, in: &self) }
        }

        struct CodableEvent: Logged, Codable, FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "event"
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .abort)
            var id: Int64?
            var name: String
            var log: [String] = []

            enum CodingKeys: String, CodingKey {
                case id, name
            }

            mutating func willInsert(_ db: Database) throws { log.append("willInsert") }
            mutating func didInsert(_ inserted: InsertionSuccess) { CallbackRecords.record(inserted, in: &self) }
        }

        @DatabaseRecord
        struct Score: FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var player: String
            var points: Int
        }

        struct CodableScore: Codable, FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "score"
            var id: Int64?
            var player: String
            var points: Int

            mutating func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
            }
        }

        /// Keeps what `didInsert` and `didSave` see of its containers.
        @DatabaseRecord
        struct Keyed: MutablePersistableRecord {
            var id: Int64?
            var value: Int
            @DatabaseTransient var seen = LockedBox<[String]>([])

            func didInsert(_ inserted: InsertionSuccess) {
                seen.append("didInsert \(inserted.persistenceContainer.map { "\($0.0)=\($0.1)" })")
            }
            func didSave(_ saved: PersistenceSuccess) {
                seen.append("didSave \(saved.persistenceContainer.map { "\($0.0)=\($0.1)" })")
            }
        }

        /// Keeps the successes that `didInsert` and `didSave` receive.
        @DatabaseRecord
        struct Kept: MutablePersistableRecord {
            var id: Int64?
            var value: Int
            @DatabaseTransient var inserted = LockedBox<[InsertionSuccess]>([])
            @DatabaseTransient var saved = LockedBox<[PersistenceSuccess]>([])

            func didInsert(_ inserted: InsertionSuccess) { self.inserted.append(inserted) }
            func didSave(_ saved: PersistenceSuccess) { self.saved.append(saved) }
        }

        static let schema = """
            CREATE TABLE event (id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (name <> 'bad'));
            CREATE TABLE score (id INTEGER PRIMARY KEY, player TEXT NOT NULL UNIQUE, points INTEGER NOT NULL);
            CREATE TABLE keyed (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
            CREATE TABLE kept (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
            """
    }

    @Suite("Persistence of @DatabaseRecord records")
    struct DatabaseRecordPersistenceTests {
        /// Runs the inserts of `body` on a fresh event table, each through the
        /// function it is given, and returns the SQL with its arguments, what
        /// the callbacks saw, the errors, then the rows.
        func logInserts<Event: CallbackRecords.Logged>(
            _ type: Event.Type,
            _ body: (Database, _ run: (Event, (inout Event) throws -> Void) -> Void) throws -> Void
        ) throws -> [String] {
            let dbQueue = try inMemoryDatabase(CallbackRecords.schema)
            return try dbQueue.write { db in
                var log: [String] = []
                try body(db) { event, insert in
                    var event = event
                    do {
                        log += try recordSQL(db, .changes, expanded: true) { try insert(&event) }
                    } catch {
                        log.append("error: \(String(describing: error))")
                    }
                    log += event.log
                }
                log += try Row.fetchAll(db, sql: "SELECT * FROM event ORDER BY id").map(\.description)
                return log
            }
        }

        /// Inserts events through every insert method.
        func insertEvents<Event: CallbackRecords.Logged>(_ type: Event.Type) throws -> [String] {
            try logInserts(type) { db, run in
                for name in ["a", "b", "c"] {
                    run(Event(id: nil, name: name, log: [])) { try $0.insert(db) }
                }
                run(Event(id: 2, name: "b2", log: [])) { try $0.insert(db) }  // OR REPLACE
                run(Event(id: 2, name: "b3", log: [])) { try $0.insert(db, onConflict: .ignore) }
                run(Event(id: 2, name: "b4", log: [])) { try $0.insert(db, onConflict: .abort) }
                run(Event(id: nil, name: "bad", log: [])) { try $0.insert(db) }
                run(Event(id: 9, name: "d", log: [])) { try $0.save(db) }
                run(Event(id: nil, name: "e", log: [])) { event in
                    let id = try event.inserted(db).id
                    event.log.append("inserted \(id.map(String.init) ?? "nil")")
                }
            }
        }

        @Test("Inserts run the SQL, callbacks and errors of a Codable record, conflict policies included")
        func insertsAsCodable() throws {
            let macro = try expectSameLogs(
                { try insertEvents($0) },
                containing: [
                    #"INSERT OR REPLACE INTO "event" ("id", "name") VALUES (NULL,'c')"#,
                    #"INSERT OR IGNORE INTO "event" ("id", "name") VALUES (2,'b3')"#,
                ], error: "CHECK constraint failed")
            #expect(macro.contains { $0.contains(#"didInsert 3 id ["id=3", "name=\"c\""]"#) })
        }

        /// Expects `log` to give the same for the macro events as for the
        /// Codable events, with `lines` and an error that contains `error`;
        /// returns the macro events' log.
        @discardableResult
        func expectSameLogs(
            _ log: (any CallbackRecords.Logged.Type) throws -> [String], containing lines: [String], error: String
        ) throws -> [String] {
            let macro = try log(CallbackRecords.Event.self)
            let codable = try log(CallbackRecords.CodableEvent.self)
            #expect(macro == codable)
            for line in lines {
                #expect(macro.contains(line))
            }
            #expect(macro.contains { $0.hasPrefix("error: ") && $0.contains(error) })
            return macro
        }

        /// Inserts events with conflict resolutions that change from one
        /// insert to the next, then the same one in a row.
        func insertEventsChangingConflicts<Event: CallbackRecords.Logged>(_ type: Event.Type) throws -> [String] {
            let conflicts: [Database.ConflictResolution?] = [
                nil, .ignore, nil, .ignore, .abort, .abort, nil, .fail, .ignore, .ignore, nil,
            ]
            return try logInserts(type) { db, run in
                for (index, conflict) in conflicts.enumerated() {
                    // Every third event has the id of the first one.
                    run(Event(id: index % 3 == 2 ? 1 : nil, name: "n\(index)", log: [])) {
                        try $0.insert(db, onConflict: conflict)
                    }
                }
            }
        }

        @Test("Changing conflict resolutions between bound inserts run the SQL and callbacks of a Codable record")
        func changingConflictsAsCodable() throws {
            try expectSameLogs(
                { try insertEventsChangingConflicts($0) },
                containing: [
                    #"INSERT OR IGNORE INTO "event" ("id", "name") VALUES (1,'n8')"#,
                    #"INSERT OR FAIL INTO "event" ("id", "name") VALUES (NULL,'n7')"#,
                    #"didInsert 8 id ["id=8", "name=\"n10\""]"#,
                ], error: "UNIQUE constraint failed")
        }

        /// The success of `didSave` holds the record of an insert that bound
        /// its columns, moved out of the insertion's success: its container
        /// has the rowid, like the one of `didInsert`.
        @Test("didSave sees the container of a bound insert, with the rowid")
        func didSaveSeesTheBoundInsert() throws {
            let dbQueue = try inMemoryDatabase(CallbackRecords.schema)
            let records = [10, 20, 30].map { CallbackRecords.Keyed(id: nil, value: $0) }
            try dbQueue.write { db in
                for record in records {
                    var record = record
                    try record.insert(db)
                }
            }
            for (index, record) in records.enumerated() {
                let values = #"["id=\#(index + 1)", "value=\#(record.value)"]"#
                #expect(record.seen.value == ["didInsert \(values)", "didSave \(values)"])
            }
        }

        /// Bound inserts reuse one deferred container while nobody keeps the
        /// success of the previous one: a success kept by a callback keeps
        /// its record, and the next insert takes another container.
        @Test("Successes kept by didInsert and didSave keep their values while later bound inserts run")
        func keptSuccessesKeepTheirValues() throws {
            let dbQueue = try inMemoryDatabase(CallbackRecords.schema)
            let records = [10, 20, 30, 40].map { CallbackRecords.Kept(id: nil, value: $0) }
            try dbQueue.write { db in
                for (index, record) in records.enumerated() {
                    var record = record
                    if index == 2 { try record.save(db) } else { try record.insert(db) }
                }
                // Inserts whose successes nobody keeps, reusing one container.
                for value in 50...52 {
                    var record = CallbackRecords.Kept(id: nil, value: value)
                    record.inserted = LockedBox([])
                    record.saved = LockedBox([])
                    try record.insert(db)
                }
            }
            for (index, record) in records.enumerated() {
                let values = ["id=\(index + 1)", "value=\(record.value)"]
                #expect(record.inserted.value.map { $0.persistenceContainer.map { "\($0.0)=\($0.1)" } } == [values])
                #expect(record.inserted.value.map(\.rowID) == [Int64(index + 1)])
                #expect(record.saved.value.map { $0.persistenceContainer.map { "\($0.0)=\($0.1)" } } == [values])
            }
            #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM kept") } == 7)
        }

        /// An `OR ROLLBACK` conflict of a bound insert ends the transaction,
        /// and the rollback of its schema change clears the schema cache,
        /// which owns the type's persistence facts and its cached INSERT:
        /// the error must still come out whole, and the next inserts work.
        @Test("A bound insert whose conflict rolls back a schema change throws its error, and inserts go on")
        func boundInsertRollingBackASchemaChange() throws {
            let dbQueue = try inMemoryDatabase(CallbackRecords.schema)
            try dbQueue.inDatabase { db in
                try db.execute(sql: "BEGIN")
                try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
                for value in [1, 2] {
                    var record = CallbackRecords.Keyed(id: Int64(value), value: value)
                    try record.insert(db)  // the second one is bound
                }
                var duplicate = CallbackRecords.Keyed(id: 1, value: 3)
                #expect {
                    try duplicate.insert(db, onConflict: .rollback)
                } throws: { error in
                    let error = error as? DatabaseError
                    return error?.resultCode == .SQLITE_CONSTRAINT
                        && error?.sql == #"INSERT OR ROLLBACK INTO "keyed" ("id", "value") VALUES (?,?)"#
                        && error?.arguments == [1, 3]
                }
                #expect(!db.isInsideTransaction)
                #expect(try !db.tableExists("other"))
                // Outside a transaction (the facts retained), then inside one.
                for value in [4, 5] {
                    var record = CallbackRecords.Keyed(id: nil, value: value)
                    try record.insert(db)
                }
                try db.inTransaction {
                    for value in [6, 7] {
                        var record = CallbackRecords.Keyed(id: nil, value: value)
                        try record.insert(db)
                    }
                    return .commit
                }
                #expect(try Int.fetchAll(db, sql: "SELECT value FROM keyed ORDER BY id") == [4, 5, 6, 7])
            }
        }

        /// Upserts scores, and returns the SQL with its arguments and the rows.
        func upsertScores<Score: FetchableRecord & MutablePersistableRecord>(
            _ make: (Int64?, String, Int) -> Score
        ) throws -> [String] {
            let dbQueue = try inMemoryDatabase(CallbackRecords.schema)
            return try dbQueue.write { db in
                var log: [String] = []
                var first = make(nil, "Arthur", 1)
                log += try recordSQL(db, .changes, expanded: true) {
                    try first.insert(db)
                    var second = make(nil, "Barbara", 2)
                    try second.insert(db)
                    var upserted = make(nil, "Arthur", 10)
                    try upserted.upsert(db)
                    log.append(propertyDescription(upserted))
                    var fetched = make(nil, "Barbara", 20)
                    log.append(propertyDescription(try fetched.upsertAndFetch(db)))
                    var inserted = make(nil, "Craig", 3)
                    try inserted.upsert(db)
                    log.append(propertyDescription(inserted))
                }
                log += try Row.fetchAll(db, sql: "SELECT * FROM score ORDER BY id").map(\.description)
                return log
            }
        }

        @Test("upsert and upsertAndFetch run the SQL of a Codable record and leave the same rows")
        func upsert() throws {
            let macro = try upsertScores { CallbackRecords.Score(id: $0, player: $1, points: $2) }
            let codable = try upsertScores { CallbackRecords.CodableScore(id: $0, player: $1, points: $2) }
            #expect(macro == codable)
            #expect(
                macro.contains {
                    $0.hasPrefix(
                        #"INSERT INTO "score" ("id", "player", "points") VALUES (NULL,'Arthur',10) ON CONFLICT DO UPDATE SET"#
                    )
                })
            #expect(
                macro.suffix(3) == [
                    #"[id:1 player:"Arthur" points:10]"#, #"[id:2 player:"Barbara" points:20]"#,
                    #"[id:3 player:"Craig" points:3]"#,
                ])
        }
    }
#endif
