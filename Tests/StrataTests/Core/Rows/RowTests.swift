import Foundation
import Strata
import StrataTestSupport
import Testing

struct RowTests {
    @Test func subscripts() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, sql: "SELECT 1 AS id, 'Arthur' AS name, NULL AS score")!
            let id: Int64 = row[0]
            let name: String = row["name"]
            let upperName: String = row["NAME"]
            let score: Int? = row["score"]
            let missing: Int? = row["missing"]
            #expect(id == 1)
            #expect(name == "Arthur")
            #expect(upperName == "Arthur")
            #expect(score == nil)
            #expect(missing == nil)
            #expect(row[Column("name")] as String == "Arthur")
            #expect(row[0] as Int? == 1)
            #expect(row["id"] as? Int64 == 1)  // raw value
            #expect(row[2] == nil)
            #expect(row.hasColumn("Name"))
            #expect(!row.hasColumn("missing"))
            #expect(row.hasNull(atIndex: 2))
            #expect(row.count == 3)
            #expect(Array(row.columnNames) == ["id", "name", "score"])
            #expect(Array(row.databaseValues) == [1.databaseValue, "Arthur".databaseValue, .null])
            #expect(row["score"] as DatabaseValue == .null)
            #expect(row["missing"] as DatabaseValue? == nil)
        }
    }

    @Test func throwingDecoding() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT NULL AS a, 256 AS b, 'x' AS c")
            let row = try rows.next()!
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 0) }
            #expect(throws: RowDecodingError.self) { try row.decode(UInt8.self, forColumn: "b") }
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
            #expect(try row.decode(Int?.self, forColumn: "missing") == nil)
            #expect(try row.decode(Int?.self, forColumn: "a") == nil)
            #expect(try row.decode(String.self, forColumn: Column("c")) == "x")
            do {
                _ = try row.decode(String.self, atIndex: 0)
            } catch {
                let description = String(describing: error)
                #expect(description.contains("could not decode String from database value NULL"))
                #expect(description.contains("SELECT NULL AS a"))
                #expect(description.contains("column: \"a\""))
            }
        }
    }

    @Test("Reads by name of a live row, in and out of the predicted order, with duplicates and errors (issue 34)")
    func liveRowReadsByName() throws {
        try inMemoryWrite("CREATE TABLE t(a, b, c); INSERT INTO t VALUES (1, 2, NULL), (4, 5, 6)") { db in
            let statement = try db.cachedStatement(sql: "SELECT a, b, c FROM t ORDER BY rowid")
            // In order, backwards, and skipping columns, on the same statement.
            #expect(try Row.fetchAll(statement).count == 2)
            let rows = try Row.fetchCursor(statement)
            var read: [[Int?]] = []
            while let row = try rows.next() {
                read.append([row["a"], row["b"], row["c"]])
                read.append([row["c"], row["b"], row["a"]])
                read.append([row["b"], row["B"], row["missing"]])
            }
            #expect(read == [[1, 2, nil], [nil, 2, 1], [2, 2, nil], [4, 5, 6], [6, 5, 4], [5, 5, nil]])
            // NULL into a non-optional, a missing column, a value out of range.
            let row = try Row.fetchOne(statement)!
            do {
                _ = try row.decode(Int.self, forColumn: "c")
                Issue.record("expected an error")
            } catch {
                let description = String(describing: error)
                #expect(description.contains("could not decode Int from database value NULL"))
                #expect(description.contains("column: \"c\""))
            }
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
            #expect(try row.decode(Int?.self, forColumn: "missing") == nil)
            // Duplicate names (case-insensitive): the leftmost column.
            let duplicates = try Row.fetchCursor(db, sql: "SELECT b AS x, a AS X, c AS y FROM t ORDER BY rowid")
            var values: [[Int?]] = []
            while let row = try duplicates.next() {
                values.append([row["x"], row["X"], row["y"], row["x"]])
            }
            #expect(values == [[2, 2, nil, 2], [5, 5, 6, 5]])
        }
    }

    @Test func duplicateColumnsUseTheLeftmost() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS A")!
            #expect(row["a"] as Int == 1)
            #expect(row["A"] as Int == 1)
            #expect(row[1] as Int == 2)
        }
    }

    @Test func literalsAndEquality() {
        let row: Row = ["name": "foo", "date": nil]
        #expect(row.description == "[name:\"foo\" date:NULL]")
        #expect(row == ["name": "foo", "date": nil])
        #expect(row != ["name": "foo"])
        #expect(Row(["a": 1]) == ["a": 1])
        #expect(Row(["a": 1] as [AnyHashable: Any]) != nil)
        #expect(Row(["a": NSObject()] as [AnyHashable: Any]) == nil)
        #expect(Row().isEmpty)
        let set: Set<Row> = [["a": 1], ["a": 1], ["a": 2]]
        #expect(set.count == 2)
        let dict = Dictionary(row.map { ($0.0, $0.1) }, uniquingKeysWith: { left, _ in left })
        #expect(dict["name"] == "foo".databaseValue)
    }

    @Test func cursorRowsAreReusedAndCopied() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT 1 AS a UNION ALL SELECT 2")
            var copies: [Row] = []
            while let row = try rows.next() {
                copies.append(row.copy())
            }
            #expect(copies.map { $0["a"] as Int } == [1, 2])
            #expect(try Row.fetchAll(db, sql: "SELECT 1 AS a UNION ALL SELECT 2") == copies)
            #expect(try Row.fetchSet(db, sql: "SELECT 1 AS a UNION ALL SELECT 1").count == 1)
            #expect(try Row.fetchOne(db, sql: "SELECT 1 AS a WHERE 0") == nil)
        }
    }

    @Test func dataNoCopy() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT x'010203' AS data, NULL AS empty")
            while let row = try rows.next() {
                #expect(row.dataNoCopy(named: "data") == Data([1, 2, 3]))
                #expect(row.dataNoCopy(atIndex: 1) == nil)
                try row.withUnsafeData(named: "data") { data in
                    #expect(data?.count == 3)
                }
            }
        }
    }

    @Test func containsNonNullValueAndCoalesce() {
        let row: Row = ["a": nil, "b": 2, "c": 3]
        #expect(row.containsNonNullValue)
        #expect(!(["a": nil] as Row).containsNonNullValue)
        let value: Int? = row.coalesce(["a", "b", "c"])
        #expect(value == 2)
    }
}

struct RowAdapterTests {
    @Test func columnMapping() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let adapter = ColumnMapping(["id": "authorId", "name": "authorName"])
            let row = try Row.fetchOne(
                db, sql: "SELECT 1 AS authorId, 'Herman' AS authorName, 2 AS other", adapter: adapter)!
            #expect(row == ["id": 1, "name": "Herman"])
            #expect(row.unadapted == ["authorId": 1, "authorName": "Herman", "other": 2])
        }
    }

    @Test func rangeSuffixEmptyRename() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT 1 AS a, 2 AS b, 3 AS c"
            #expect(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 1)) == ["b": 2, "c": 3])
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(0..<2)) == ["a": 1, "b": 2])
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1...1)) == ["b": 2])
            #expect(try Row.fetchOne(db, sql: sql, adapter: EmptyRowAdapter())!.isEmpty)
            let renamed = try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { $0.uppercased() })!
            #expect(Array(renamed.columnNames) == ["A", "B", "C"])
            // Values through adapted live rows
            let cursor = try Row.fetchCursor(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2))
            while let row = try cursor.next() {
                #expect(row[0] as Int == 3)
                #expect(row["c"] as Int == 3)
            }
            #expect(try Int.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 1)) == 2)
        }
    }

    @Test func scopes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let adapter = ScopeAdapter([
                "author": RangeRowAdapter(0..<2),
                "book": ScopeAdapter(base: SuffixRowAdapter(fromIndex: 2), scopes: ["title": RangeRowAdapter(3..<4)]),
            ])
            let row = try Row.fetchOne(
                db, sql: "SELECT 1 AS id, 'Herman' AS name, 2 AS id, 'Moby-Dick' AS title", adapter: adapter)!
            #expect(row.scopes["author"] == ["id": 1, "name": "Herman"])
            #expect(row.scopes["book"]?.unscoped == ["id": 2, "title": "Moby-Dick"])
            #expect(Set(row.scopes.names) == ["author", "book"])
            #expect(row.scopesTree["title"] == ["title": "Moby-Dick"])
            #expect(row.scopesTree.names == ["author", "book", "title"])
            #expect(row.scopes["missing"] == nil)
            // The base row has all columns
            #expect(row.count == 4)
            #expect(row.unscoped.scopes.isEmpty)
        }
    }

    @Test func splitting() throws {
        let adapters = splittingRowAdapters(columnCounts: [2, 1])
        #expect(adapters.count == 3)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT 1 AS a, 2 AS b, 3 AS c, 4 AS d"
            #expect(try Row.fetchOne(db, sql: sql, adapter: adapters[0]) == ["a": 1, "b": 2])
            #expect(try Row.fetchOne(db, sql: sql, adapter: adapters[1]) == ["c": 3])
            #expect(try Row.fetchOne(db, sql: sql, adapter: adapters[2]) == ["d": 4])
        }
    }

    @Test func recordsFromScopes() throws {
        struct Author: FetchableRecord, Equatable {
            var name: String
            init(row: Row) throws { name = row["name"] }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let adapter = ScopeAdapter(["author": SuffixRowAdapter(fromIndex: 1)])
            let row = try Row.fetchOne(db, sql: "SELECT 1 AS id, 'Herman' AS name", adapter: adapter)!
            let author: Author = row["author"]
            #expect(author.name == "Herman")
            let missing: Author? = row["missing"]
            #expect(missing == nil)
            let nullRow = try Row.fetchOne(db, sql: "SELECT 1 AS id, NULL AS name", adapter: adapter)!
            let nullAuthor: Author? = nullRow["author"]
            #expect(nullAuthor == nil)
        }
    }
}
