import Strata
import StrataTestSupport
import Testing

/// What `FTS3Pattern` and `FTS5Pattern` share: the patterns built from user
/// input, and the raw pattern that goes to the database as a string.
private protocol UserInputPattern: DatabaseValueConvertible {
    init?(matchingAnyTokenIn string: String)
    init?(matchingAllTokensIn string: String)
    init?(matchingAllPrefixesIn string: String)
    init?(matchingPhrase string: String)
    var rawPattern: String { get }
    /// The pattern of `rawPattern`, once its syntax is checked.
    static func checked(_ rawPattern: String) throws -> Self
}

extension FTS3Pattern: UserInputPattern {
    static func checked(_ rawPattern: String) throws -> Self { try Self(rawPattern: rawPattern) }
}

extension FTS5Pattern: UserInputPattern {
    static func checked(_ rawPattern: String) throws -> Self { try Self(rawPattern: rawPattern) }
}

/// The two pattern syntaxes, for the tests that run on both.
private enum PatternSyntax: String, CaseIterable, Sendable, CustomStringConvertible {
    case fts3, fts5

    var description: String { rawValue }

    var patternType: any UserInputPattern.Type {
        switch self {
        case .fts3: FTS3Pattern.self
        case .fts5: FTS5Pattern.self
        }
    }
}

/// Runs `body` in a write access of a new database whose full-text table
/// `document(content)` of `module` holds one row for each of `contents`.
private func writeDocuments(
    _ module: SynchronizableFTSModule, _ contents: [String], _ body: (Database) throws -> Void
) throws {
    try DatabaseQueue().write { db in
        try module.createTable(db, named: "document", columns: ["content"])
        for content in contents {
            try db.execute(sql: "INSERT INTO document (content) VALUES (?)", arguments: [content])
        }
        try body(db)
    }
}

/// The user inputs without any token: no pattern matches them.
private let inputsWithoutTokens = ["", "*", "  ", "\"-*"]

/// The patterns both syntaxes build from user input.
struct UserInputPatternTests {
    @Test(arguments: PatternSyntax.allCases)
    fileprivate func tokenPatterns(_ syntax: PatternSyntax) {
        expectTokenPatterns(syntax.patternType)
    }

    private func expectTokenPatterns<Pattern: UserInputPattern>(_: Pattern.Type) {
        let query = "SQLite database"
        #expect(Pattern(matchingAnyTokenIn: query)?.rawPattern == "sqlite OR database")
        #expect(Pattern(matchingAllTokensIn: query)?.rawPattern == "sqlite database")
        #expect(Pattern(matchingAllPrefixesIn: query)?.rawPattern == "sqlite* database*")
        #expect(Pattern(matchingPhrase: query)?.rawPattern == "\"sqlite database\"")
        for string in inputsWithoutTokens {
            #expect(Pattern(matchingAnyTokenIn: string) == nil)
            #expect(Pattern(matchingAllTokensIn: string) == nil)
            #expect(Pattern(matchingAllPrefixesIn: string) == nil)
            #expect(Pattern(matchingPhrase: string) == nil)
        }
    }

    @Test(arguments: PatternSyntax.allCases)
    fileprivate func databaseValue(_ syntax: PatternSyntax) throws {
        try expectDatabaseValue(syntax.patternType)
    }

    private func expectDatabaseValue<Pattern: UserInputPattern>(_: Pattern.Type) throws {
        let pattern = try Pattern.checked("foo")
        #expect(pattern.databaseValue == "foo".databaseValue)
        #expect(Pattern.fromDatabaseValue("foo".databaseValue)?.rawPattern == "foo")
        #expect(Pattern.fromDatabaseValue("AND".databaseValue) == nil)
        #expect(Pattern.fromDatabaseValue(.null) == nil)
        #expect(Pattern.fromDatabaseValue(1.databaseValue) == nil)
    }
}

struct FTS3PatternTests {
    @Test func rawPattern() throws {
        let pattern = try FTS3Pattern(rawPattern: "sqlite AND database")
        #expect(pattern.rawPattern == "sqlite AND database")
        #expect(try FTS3Pattern(rawPattern: "data*").rawPattern == "data*")
        #expect(try FTS3Pattern(rawPattern: "SQLite OR database").rawPattern == "SQLite OR database")
        #expect(try FTS3Pattern(rawPattern: "\"SQLite database\"").rawPattern == "\"SQLite database\"")
    }

    @Test func malformedRawPattern() throws {
        let error = try #require(throws: DatabaseError.self) {
            try FTS3Pattern(rawPattern: "AND")
        }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "malformed MATCH expression: [AND]")
        #expect(throws: DatabaseError.self) { try FTS3Pattern(rawPattern: "\"unclosed") }
        #expect(throws: DatabaseError.self) { try FTS3Pattern(rawPattern: "foo OR") }
    }

    @Test func tokenPatterns() throws {
        // Operators and punctuation of user input are not interpreted
        #expect(FTS3Pattern(matchingAllTokensIn: "AND \"foo* -bar")?.rawPattern == "and foo bar")
        #expect(FTS3Pattern(matchingPhrase: "Moby-Dick")?.rawPattern == "\"moby dick\"")
    }

    @Test func search() throws {
        let texts = ["SQLite is a database engine", "SQLite is a library", "A database server", "Moby-Dick"]
        try writeDocuments(.fts4, texts) { db throws in
            func contents(_ pattern: FTS3Pattern?) throws -> Set<String> {
                Set(try FTSDocument.matching(pattern).fetchAll(db).map(\.content))
            }
            let query = "SQLite database"
            #expect(
                try contents(FTS3Pattern(matchingAnyTokenIn: query))
                    == ["SQLite is a database engine", "SQLite is a library", "A database server"])
            #expect(try contents(FTS3Pattern(matchingAllTokensIn: query)) == ["SQLite is a database engine"])
            #expect(try contents(FTS3Pattern(matchingPhrase: query)) == [])
            #expect(
                try contents(FTS3Pattern(matchingPhrase: "a database")) == [
                    "SQLite is a database engine", "A database server",
                ])
            #expect(try contents(FTS3Pattern(matchingAllPrefixesIn: "sql data")) == ["SQLite is a database engine"])
            #expect(try contents(FTS3Pattern(matchingPhrase: "Moby-Dick")) == ["Moby-Dick"])
            #expect(
                try contents(FTS3Pattern(rawPattern: "data*")) == ["SQLite is a database engine", "A database server"])
            #expect(
                try contents(FTS3Pattern(rawPattern: "library OR server")) == [
                    "SQLite is a library", "A database server",
                ])
            #expect(try contents(FTS3Pattern(matchingAnyTokenIn: "")) == [])

            // SQL arguments
            let pattern = FTS3Pattern(matchingAllTokensIn: query)
            let documents = try FTSDocument.fetchAll(
                db, sql: "SELECT * FROM document WHERE content MATCH ?", arguments: [pattern])
            #expect(documents == [FTSDocument(content: "SQLite is a database engine")])

            // Column match
            let columnRequest = FTSDocument.filter(Column("content").match(pattern))
            #expect(try requestSQL(db, columnRequest) == #"SELECT * FROM "document" WHERE "content" MATCH ?"#)
            #expect(try columnRequest.fetchAll(db) == [FTSDocument(content: "SQLite is a database engine")])
            #expect(try FTSDocument.filter(Column("content").match(nil)).fetchAll(db) == [])

            // Table match
            let tableRequest = FTSDocument.matching(pattern)
            #expect(try requestSQL(db, tableRequest) == #"SELECT * FROM "document" WHERE "document" MATCH ?"#)
            #expect(try tableRequest.makePreparedRequest(db).statement.arguments == [pattern!.rawPattern])
            #expect(try Table("document").matching(pattern).fetchCount(db) == 1)
            #expect(try FTSDocument.all().matching(pattern).fetchCount(db) == 1)
            #expect(try FTSDocument.filter(Column("content") != "").matching(pattern).fetchCount(db) == 1)
            let nilPattern: FTS3Pattern? = nil
            #expect(try FTSDocument.matching(nilPattern).fetchCount(db) == 0)
            #expect(try Table("document").matching(nilPattern).fetchCount(db) == 0)

            // Aliased table
            let alias = TableAlias(name: "d")
            let aliased = FTSDocument.aliased(alias).matching(pattern)
            #expect(try requestSQL(db, aliased) == #"SELECT "d".* FROM "document" "d" WHERE "document" MATCH ?"#)
            #expect(try aliased.fetchCount(db) == 1)
        }
    }
}

struct FTS5PatternTests {
    @Test func makeFTS5Pattern() throws {
        try DatabaseQueue().write { db throws in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("author")
            }
            #expect(try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "book").rawPattern == "sqlite")
            #expect(try db.makeFTS5Pattern(rawPattern: "title: sqlite", forTable: "book").rawPattern == "title: sqlite")
            #expect(try db.makeFTS5Pattern(rawPattern: "{title author}: sqlite", forTable: "book").rawPattern != "")

            let syntaxError = try #require(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "AND", forTable: "book")
            }
            #expect(syntaxError.resultCode == .SQLITE_ERROR)
            #expect(syntaxError.message?.contains(#"syntax error near "AND""#) == true)

            let columnError = try #require(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book")
            }
            #expect(columnError.resultCode == .SQLITE_ERROR)
            #expect(columnError.message?.contains("no such") == true)
            #expect(columnError.message?.contains("missing") == true)

            #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "no_such_table")
            }
        }
    }

    @Test func rawPattern() throws {
        #expect(try FTS5Pattern(rawPattern: "sqlite AND database").rawPattern == "sqlite AND database")
        #expect(try FTS5Pattern(rawPattern: "title: sqlite", allowedColumns: ["title"]).rawPattern == "title: sqlite")
        #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "title: sqlite") }
        #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "AND") }
        #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "\"unclosed") }
    }

    @Test func tokenPatterns() throws {
        let query = "SQLite database"
        #expect(FTS5Pattern(matchingPrefixPhrase: query)?.rawPattern == "^\"sqlite database\"")
        #expect(FTS5Pattern(matchingAllTokensIn: "AND NOT: title:\"x\" *")?.rawPattern == "and not title x")
        for string in inputsWithoutTokens {
            #expect(FTS5Pattern(matchingPrefixPhrase: string) == nil)
        }
    }

    @Test func search() throws {
        let texts = ["SQLite is a database engine", "SQLite database engine", "A database server", "Moby-Dick"]
        try writeDocuments(.fts5, texts) { db throws in
            func contents(_ pattern: FTS5Pattern?) throws -> Set<String> {
                Set(try FTSDocument.matching(pattern).fetchAll(db).map(\.content))
            }
            let query = "SQLite database"
            #expect(
                try contents(FTS5Pattern(matchingAnyTokenIn: query))
                    == ["SQLite is a database engine", "SQLite database engine", "A database server"])
            #expect(
                try contents(FTS5Pattern(matchingAllTokensIn: query))
                    == ["SQLite is a database engine", "SQLite database engine"])
            #expect(try contents(FTS5Pattern(matchingPhrase: query)) == ["SQLite database engine"])
            // Documents that start with the phrase (seed 001): whole tokens, no prefix.
            #expect(try contents(FTS5Pattern(matchingPrefixPhrase: "sqlite database")) == ["SQLite database engine"])
            #expect(try contents(FTS5Pattern(matchingPrefixPhrase: "sqlite datab")) == [])
            #expect(try contents(FTS5Pattern(matchingPrefixPhrase: "database")) == [])
            #expect(try contents(FTS5Pattern(matchingPrefixPhrase: "a database")) == ["A database server"])
            #expect(
                try contents(FTS5Pattern(matchingAllPrefixesIn: "sql eng")) == [
                    "SQLite is a database engine", "SQLite database engine",
                ])
            #expect(try contents(FTS5Pattern(matchingPhrase: "Moby-Dick")) == ["Moby-Dick"])
            #expect(try contents(FTS5Pattern(matchingAnyTokenIn: "*")) == [])

            let pattern = FTS5Pattern(matchingAllTokensIn: query)
            let request = FTSDocument.matching(pattern)
            #expect(try requestSQL(db, request) == #"SELECT * FROM "document" WHERE "document" MATCH ?"#)
            let documents = try FTSDocument.fetchAll(
                db, sql: "SELECT * FROM document WHERE document MATCH ?", arguments: [pattern])
            #expect(Set(documents) == Set(try request.fetchAll(db)))
            let columnRequest = FTSDocument.filter(Column("content").match(pattern!))
            #expect(try requestSQL(db, columnRequest) == #"SELECT * FROM "document" WHERE "content" MATCH ?"#)
            #expect(try columnRequest.fetchCount(db) == 2)
            #expect(try Table("document").matching(pattern).fetchCount(db) == 2)
        }
    }

    @Test func unknownColumnInSearch() throws {
        try writeDocuments(.fts5, []) { db throws in
            let pattern = try FTS5Pattern(rawPattern: "missing: foo", allowedColumns: ["missing"])
            #expect(throws: DatabaseError.self) {
                try FTSDocument.matching(pattern).fetchAll(db)
            }
        }
    }
}
