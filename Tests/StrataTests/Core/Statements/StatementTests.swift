import Foundation
import Strata
import StrataTestSupport
import Testing

struct StatementTests {
    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try inMemoryDatabase("CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT)")
        return dbQueue
    }

    @Test func executeWithPositionalAndNamedArguments() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
            try db.execute(
                sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
                arguments: ["name": "Barbara", "score": 750])
            #expect(db.lastInsertedRowID == 2)
            #expect(db.changesCount == 1)
            #expect(db.totalChangesCount >= 2)
            let names = try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
            #expect(names == ["Arthur", "Barbara"])
        }
    }

    @Test func multipleStatementsConsumeArgumentsInOrder() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            try db.execute(
                sql: """
                    INSERT INTO player (name, score) VALUES (?, ?);
                    INSERT INTO player (name, score) VALUES (?, ?);
                    """, arguments: ["Arthur", 1, "Barbara", 2])
            #expect(try Int.fetchOne(db, sql: "SELECT SUM(score) FROM player") == 3)
        }
    }

    @Test func executeLiteralBindsValues() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let name = "O'Brien; DROP TABLE player"
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(42))")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == name)
        }
    }

    @Test func preparedStatementsRunManyTimes() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            try statement.execute(arguments: ["name": "Arthur", "score": 1000])
            try statement.execute(arguments: ["name": "Barbara", "score": 750])
            statement.arguments = ["name": "Craig", "score": 500]
            try statement.execute()
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 3)

            let select = try db.makeStatement(sql: "SELECT * FROM player WHERE score > ?")
            #expect(select.columnCount == 3)
            #expect(select.columnNames == ["id", "name", "score"])
            #expect(select.index(ofColumn: "NAME") == 1)
            #expect(select.index(ofColumn: "missing") == nil)
            #expect(select.isReadonly)
            #expect(!statement.isReadonly)
            #expect(select.sql == "SELECT * FROM player WHERE score > ?")
            #expect(select.description == select.sql)
            let rows = try Row.fetchAll(select, arguments: [600])
            #expect(rows.count == 2)
            #expect(try String.fetchAll(select, arguments: [900]).isEmpty == false)
        }
    }

    @Test func makeStatementRejectsSeveralStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            #expect {
                try db.makeStatement(sql: "SELECT 1; SELECT 2")
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
            }
            // Trailing white space, semicolons and comments are not statements.
            _ = try db.makeStatement(sql: "SELECT 1; -- comment\n ")
        }
    }

    @Test func syntaxErrorsThrowWithTheSQL() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            do {
                _ = try db.makeStatement(sql: "SELECT * FRO player")
                Issue.record("Expected error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.sql == "SELECT * FRO player")
                #expect(error.description.contains("near \"FRO\": syntax error"))
                #expect(error.description.contains("SELECT * FRO player"))
            }
        }
    }

    @Test func argumentValidation() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE id = ? AND name = ?")
            #expect(throws: DatabaseError.self) { try statement.validateArguments([1]) }
            #expect(throws: DatabaseError.self) { try statement.validateArguments([1, "a", 3]) }
            try statement.validateArguments([1, "a"])
            #expect(throws: DatabaseError.self) { try statement.setArguments([1]) }
            statement.setUncheckedArguments([1])
            #expect(statement.arguments == [1])

            let named = try db.makeStatement(sql: "SELECT * FROM player WHERE name = :name")
            #expect(throws: DatabaseError.self) { try named.validateArguments(["nam": "a"]) }
            try named.validateArguments(["name": "a"])
        }
    }

    @Test func uncheckedArgumentsBindEachExecution() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?, ?)")
            // A literal with a value for each parameter (bound in place), one
            // value too few (NULL), one too many (ignored), then an array.
            insert.setUncheckedArguments([1, "x", 2.5])
            try insert.execute()
            insert.setUncheckedArguments([2, "y"])
            try insert.execute()
            insert.setUncheckedArguments([3, "z", 4, 5])
            try insert.execute()
            insert.setUncheckedArguments(StatementArguments([4, nil, "w"] as [(any DatabaseValueConvertible)?]))
            #expect(insert.arguments == [4, nil, "w"])
            try insert.execute()
            // The last arguments stay bound for the next execution.
            try insert.execute()
            let rows = try Row.fetchAll(db, sql: "SELECT a, b, c FROM t ORDER BY rowid")
            #expect(
                rows == [
                    ["a": 1, "b": "x", "c": 2.5], ["a": 2, "b": "y", "c": nil], ["a": 3, "b": "z", "c": 4],
                    ["a": 4, "b": nil, "c": "w"], ["a": 4, "b": nil, "c": "w"],
                ])

            // A statement bound by `setUncheckedArguments` skips one reset,
            // no more: while a cursor stands after its first row, the next
            // execution starts from the first row again. The same after
            // `execute(arguments:)` cleared the bindings, which the next
            // execution binds again through `setUncheckedArguments`.
            let select = try db.cachedStatement(sql: "SELECT a FROM t WHERE a >= ? ORDER BY a")
            select.setUncheckedArguments([2])
            let cursor = try Int.fetchCursor(select)
            #expect(try cursor.next() == 2)
            #expect(try Int.fetchOne(select) == 2)
            try select.execute(arguments: [3])
            let rebound = try Int.fetchCursor(select)
            #expect(try rebound.next() == 3)
            #expect(try Int.fetchOne(select) == 3)

            let named = try db.cachedStatement(sql: "INSERT INTO t VALUES (:a, :b, :a)")
            named.setUncheckedArguments(["a": 9, "b": "n"])
            try named.execute()
            #expect(
                try Row.fetchOne(db, sql: "SELECT a, b, c FROM t ORDER BY rowid DESC") == ["a": 9, "b": "n", "c": 9])
        }
    }

    @Test func wrongNumberOfArguments() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            do {
                _ = try Row.fetchAll(
                    db, sql: "SELECT * FROM player WHERE name LIKE '%?%'", arguments: ["Arthur"])
                Issue.record("Expected error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISUSE)
                #expect(error.message?.contains("wrong number of statement arguments") == true)
            }
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT * FROM player WHERE id = ?")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT 1; SELECT 2", arguments: [1])
            }
        }
    }

    @Test func cachedStatementsAreReused() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let s1 = try db.cachedStatement(sql: "INSERT INTO player (name) VALUES (?)")
            let s2 = try db.cachedStatement(sql: "INSERT INTO player (name) VALUES (?)")
            #expect(s1 === s2)
            try s1.execute(arguments: ["a"])
            // Schema changes don't break cached statements.
            try db.execute(sql: "ALTER TABLE player ADD COLUMN extra TEXT")
            let s3 = try db.cachedStatement(sql: "INSERT INTO player (name) VALUES (?)")
            try s3.execute(arguments: ["b"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 2)
            let literal = try db.cachedStatement(literal: "SELECT \(1) + \(2)")
            #expect(try Int.fetchOne(literal) == 3)
        }
    }

    @Test func allStatementsCursor() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let statements = try db.allStatements(
                sql: """
                    INSERT INTO player (name) VALUES (?);
                    INSERT INTO player (name) VALUES (?);
                    """, arguments: ["Arthur", "Barbara"])
            while let statement = try statements.next() {
                try statement.execute()
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 2)

            var names: [String] = []
            let all = try db.allStatements(
                sql: "SELECT name FROM player WHERE id = 1; SELECT name FROM player WHERE id = 2")
            while let statement = try all.next() {
                names += try String.fetchAll(statement)
            }
            #expect(names == ["Arthur", "Barbara"])

            // Literal form
            let literal = try db.allStatements(literal: "SELECT \(1); SELECT \(2)")
            var values: [Int] = []
            while let statement = try literal.next() {
                values += try Int.fetchAll(statement)
            }
            #expect(values == [1, 2])
        }
    }

    @Test func statementsReadTheirRegion() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            let statement = try db.makeStatement(sql: "SELECT name FROM player")
            #expect(!statement.databaseRegion.isEmpty)
            #expect(statement.databaseRegion.description == "player(name)")
        }
    }

    @Test func questionMarks() {
        #expect(databaseQuestionMarks(count: 3) == "?,?,?")
        #expect(databaseQuestionMarks(count: 0) == "")
    }

    @Test func statementDocumentationSamples() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let insertStatement = try db.makeStatement(
                sql: """
                    INSERT INTO player (name, score) VALUES (:name, :score)
                    """)
            let selectStatement = try db.makeStatement(
                sql: """
                    SELECT * FROM player WHERE name = ?
                    """)
            insertStatement.arguments = ["name": "Arthur", "score": 1000]
            selectStatement.arguments = ["Arthur"]
            try insertStatement.execute()
            #expect(try Player.fetchAll(selectStatement) == [Player(id: 1, name: "Arthur", score: 1000)])
            #expect(try Player.fetchSet(selectStatement).count == 1)
            #expect(try Player.fetchOne(selectStatement)?.score == 1000)
            #expect(try Player.fetchCursor(selectStatement).next()?.name == "Arthur")
            try insertStatement.execute(arguments: ["name": "Barbara", "score": 750])
            #expect(try Player.fetchOne(selectStatement, arguments: ["Barbara"])?.score == 750)
            try insertStatement.setArguments(["name": "Craig", "score": 500])
            try insertStatement.execute()

            let literalStatement = try db.makeStatement(literal: "SELECT name FROM player WHERE score > \(600)")
            #expect(try String.fetchAll(literalStatement) == ["Arthur", "Barbara"])

            let statements = try db.allStatements(
                literal: """
                    INSERT INTO player (name, score) VALUES (\("Dan"), \(100));
                    INSERT INTO player (name, score) VALUES (\("O'Brien"), \(1000));
                    """)
            try statements.forEach { statement in
                try statement.execute()
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 5)

            let selects = try db.allStatements(
                sql: """
                    SELECT * FROM player WHERE score >= 1000;
                    SELECT * FROM player WHERE score < 200;
                    """)
            let players = selects.flatMap { statement in
                try Player.fetchCursor(statement)
            }
            var names: [String] = []
            while let player = try players.next() {
                names.append(player.name)
            }
            #expect(names == ["Arthur", "O'Brien", "Dan"])

            // OK: Array of statements
            let array = try Array(
                db.allStatements(
                    sql: """
                        INSERT INTO player (name, score) VALUES ('Eve', 1);
                        UPDATE player SET score = 2 WHERE name = 'Eve';
                        """))
            #expect(array.count == 2)
            // FAILURE: the INSERT won't compile until CREATE TABLE is executed.
            #expect(throws: DatabaseError.self) {
                try Array(
                    db.allStatements(
                        sql: """
                            CREATE TABLE other (a);
                            INSERT INTO other VALUES (1);
                            """))
            }
        }
    }
}

/// Statement misuses reported as GRDB 7 reports them.
struct StatementMisuseTests {
    @Test func makeStatementRejectsASecondStatementBeforeCompilingIt() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            do {
                _ = try db.makeStatement(sql: "UPDATE t SET a = 1; x")
                Issue.record("Expected error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISUSE)
                #expect(
                    error.message
                        == "Multiple statements found. To execute multiple statements, "
                        + "use Database.execute(sql:) or Database.allStatements(sql:) instead.")
            }
            // Trailing white space, semicolons and comments are not statements.
            _ = try db.makeStatement(sql: "UPDATE t SET a = 1; -- comment\n /* block */ ;  ")
        }
    }

    @Test(arguments: ["", "SELECT 1", "SELECT ?; SELECT 2"])
    func extraArgumentsAreAMisuse(sql: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let count = sql.contains("?") ? 2 : 1
            let arguments = StatementArguments(Array(1...count))
            do {
                try db.execute(sql: sql, arguments: arguments)
                Issue.record("Expected error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISUSE)
                #expect(error.message == "wrong number of statement arguments: \(count)")
            }
        }
    }

    @Test func executeWithArgumentsClearsTheBindings() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statement = try db.makeStatement(sql: "INSERT INTO t (a) VALUES (?)")
            try statement.execute(arguments: ["secret"])
            let expanded = try #require(sqlite3_expanded_sql(statement.sqliteStatement))
            defer { sqlite3_free(expanded) }
            #expect(String(cString: expanded) == "INSERT INTO t (a) VALUES (NULL)")
            // The statement still runs again with its arguments.
            #expect(statement.arguments == ["secret"])
            try statement.execute()
            #expect(try String.fetchAll(db, sql: "SELECT a FROM t") == ["secret", "secret"])
        }
    }

    @Test func namedTextsAndBlobsAreClearedNumbersNeedNot() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (:a, :b, :c)")
            try statement.execute(arguments: ["a": 1, "b": Data([0xFF]), "c": 2.5])
            let expanded = try #require(sqlite3_expanded_sql(statement.sqliteStatement))
            defer { sqlite3_free(expanded) }
            #expect(String(cString: expanded) == "INSERT INTO t VALUES (NULL, NULL, NULL)")
            // Numbers only: SQLite keeps nothing that needs releasing, and
            // the next executions still see their own arguments.
            try statement.execute(arguments: ["a": 2, "b": nil, "c": 3.5])
            try statement.execute()
            try statement.execute(arguments: ["a": "x", "b": 4, "c": nil])
            let rows = try Row.fetchAll(db, sql: "SELECT a, b, c FROM t")
            #expect(
                rows == [
                    ["a": 1, "b": Data([0xFF]), "c": 2.5], ["a": 2, "b": nil, "c": 3.5],
                    ["a": 2, "b": nil, "c": 3.5], ["a": "x", "b": 4, "c": nil],
                ])
        }
    }
}

/// Statements from SQL literals, and the SQL text statements show.
struct StatementLiteralAndTextTests {
    @Test("makeStatement(literal:) leaves placeholders of the literal for later arguments")
    func literalPlaceholders() throws {
        try inMemoryWrite("CREATE TABLE player (name TEXT, score INT)") { db in
            let insert = try db.makeStatement(literal: "INSERT INTO player (name, score) VALUES (?, ?)")
            try insert.execute(arguments: ["Arthur", 1000])
            let named = try db.makeStatement(literal: "INSERT INTO player (name, score) VALUES (:name, :score)")
            try named.execute(arguments: ["name": "Barbara", "score": 750])
            let cached = try db.cachedStatement(literal: "SELECT score FROM player WHERE name = ?")
            #expect(try Int.fetchOne(cached, arguments: ["Barbara"]) == 750)
            // Interpolated values are bound at creation.
            let select = try db.makeStatement(literal: "SELECT score FROM player WHERE name = \("Arthur")")
            #expect(try Int.fetchOne(select) == 1000)
            #expect(select.arguments == ["Arthur"])
        }
    }

    @Test("Statement.sql, error descriptions and traces trim white space and semicolons; DatabaseError.sql does not")
    func trimmedSQL() throws {
        var traced: [String] = []
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.trace { traced.append($0.description) }
            let statement = try db.makeStatement(sql: "  CREATE TABLE t(a);  ")
            #expect(statement.sql == "CREATE TABLE t(a)")
            try statement.execute()
            #expect(traced.last == "CREATE TABLE t(a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t(b) VALUES (1);")
            }
            #expect(error?.sql == "INSERT INTO t(b) VALUES (1);")
            #expect(
                error?.description
                    == "SQLite error 1: table t has no column named b - while executing `INSERT INTO t(b) VALUES (1)`")
            db.trace(options: .statement, nil)
        }
        let error = DatabaseError(resultCode: .SQLITE_ERROR, message: "oops", sql: " SELECT 1; ")
        #expect(error.sql == " SELECT 1; ")
        #expect(error.description == "SQLite error 1: oops - while executing `SELECT 1`")
    }
}
