import Strata

// The work of FluentWorkloads through Strata's own API (records, the query
// interface, associations, async accesses), and the fixture both use.

public struct AuthorRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    public static let databaseTableName = "author"
    static let posts = hasMany(PostRecord.self, using: ForeignKey(["author_id"]))
    public var id: Int?
    public var name: String
}

public struct PostRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    public static let databaseTableName = "post"
    public var id: Int?
    public var authorID: Int
    public var title: String
    public var score: Int

    enum CodingKeys: String, CodingKey {
        case id
        case authorID = "author_id"
        case title
        case score
    }
}

struct AuthorWithPosts: Decodable, FetchableRecord {
    var author: AuthorRecord
    var posts: [PostRecord]
}

public enum FluentFixture {
    /// Makes the tables and rows of the workloads in the pool at `path`:
    /// 1,000 authors with 10 posts each, then checkpoints the WAL into the
    /// file, so that copies of the file hold everything.
    public static func make(at path: String) throws {
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE post(
                        id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES author(id),
                        title TEXT NOT NULL, score INTEGER NOT NULL);
                    CREATE INDEX post_author ON post(author_id);
                    CREATE INDEX post_score ON post(score);
                    """)
            for a in 1...1_000 {
                try AuthorRecord(id: a, name: "author \(a)").insert(db)
            }
            for p in 1...10_000 {
                try PostRecord(id: p, authorID: 1 + (p - 1) / 10, title: "post \(p)", score: (p &* 7919) % 10_000)
                    .insert(db)
            }
        }
        _ = try dbPool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try dbPool.close()
    }
}

/// The workloads, as FluentWork's.
public enum StrataAPIWork {
    public static func findByID(_ dbPool: DatabasePool, count: Int, seed: Int = 0) async throws -> Int {
        var sum = 0
        for i in 0..<count {
            let id = 1 + (seed &+ i &* 7907) % 10_000
            sum &+= try await dbPool.read { db in try PostRecord.fetchOne(db, key: id) }?.score ?? 0
        }
        return sum
    }

    public static func page(_ dbPool: DatabasePool, count: Int, seed: Int = 0) async throws -> Int {
        var total = 0
        for i in 0..<count {
            let threshold = (seed &+ i &* 37) % 9_000
            total &+= try await dbPool.read { db in
                try PostRecord.filter(Column("score") > threshold).order(Column("score").desc).limit(50)
                    .fetchAll(db)
            }.count
        }
        return total
    }

    public static func eagerLoad(_ dbPool: DatabasePool, count: Int, seed: Int = 0) async throws -> Int {
        var total = 0
        for i in 0..<count {
            let first = (seed &+ i &* 13) % 980
            let authors = try await dbPool.read { db in
                try AuthorRecord.filter(Column("id") > first).order(Column("id")).limit(20)
                    .including(all: AuthorRecord.posts).asRequest(of: AuthorWithPosts.self).fetchAll(db)
            }
            total &+= authors.reduce(0) { $0 + $1.posts.count }
        }
        return total
    }

    public static func create(_ dbPool: DatabasePool, count: Int, seed: Int = 0) async throws -> Int {
        for i in 0..<count {
            let post = PostRecord(id: nil, authorID: 1 + (seed &+ i) % 1_000, title: "new", score: i)
            try await dbPool.write { db in try post.insert(db) }
        }
        return count
    }

    public static func batch(_ dbPool: DatabasePool, seed: Int = 0) async throws -> Int {
        try await dbPool.write { db in
            for i in 0..<1_000 {
                try PostRecord(id: nil, authorID: 1 + (seed &+ i) % 1_000, title: "batch", score: i).insert(db)
            }
        }
        return 1_000
    }

    public static func mixStep(_ dbPool: DatabasePool, step: Int) async throws -> Int {
        var sum = try await findByID(dbPool, count: 4, seed: step)
        sum &+= try await page(dbPool, count: 1, seed: step)
        sum &+= try await create(dbPool, count: 1, seed: step)
        return sum
    }
}
