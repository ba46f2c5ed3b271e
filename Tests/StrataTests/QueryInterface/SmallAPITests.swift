import Strata
import StrataTestSupport
import Testing

/// AnyDatabaseRegionConvertible and the joining of SQL literals.
@Suite struct SmallAPITests {
    @Test func anyDatabaseRegionConvertible() throws {
        try inMemoryWrite("CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER)") { db throws in
            let fromClosure = AnyDatabaseRegionConvertible { db in
                try Table("player").select(Column("score")).databaseRegion(db)
            }
            #expect(try fromClosure.databaseRegion(db).description == "player(score)")
            let fromRegion = AnyDatabaseRegionConvertible(Table("player"))
            #expect(try fromRegion.databaseRegion(db) == Table("player").databaseRegion(db))
        }
    }

    @Test func joinedLiterals() throws {
        let literals: [SQL] = ["a = \(1)", "b = \(2)"]
        let joined = literals.joined(separator: " AND ")
        let dbQueue = try DatabaseQueue()
        let (sql, arguments) = try dbQueue.read { db in try joined.build(db) }
        #expect(sql == "a = ? AND b = ?")
        #expect(arguments == [1, 2])
        let lazyJoined = literals.lazy.map { $0 }.joined()
        let (lazySQL, _) = try dbQueue.read { db in try lazyJoined.build(db) }
        #expect(lazySQL == "a = ?b = ?")
        #expect([SQL]().joined(separator: ", ").isEmpty)
    }
}
