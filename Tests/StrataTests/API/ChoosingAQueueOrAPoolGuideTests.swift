import Strata
import Testing

/// The sample of `Sources/Strata/Strata.docc/ChoosingAQueueOrAPool.md`
/// (`ArticleSampleTests` checks that it is here). It opens a file at a path
/// of the reader's, so it is compiled, not run; the pool tests of
/// `Tests/StrataTests/Concurrency/` run the same calls.
struct ChoosingAQueueOrAPoolGuideTests {
    func poolSample() throws -> Int? {
        let dbPool = try DatabasePool(path: "/path/to/db.sqlite")
        try dbPool.write { db in try db.execute(sql: "UPDATE player SET score = score + 1") }
        let total = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT SUM(score) FROM player") }
        return total
    }
}
