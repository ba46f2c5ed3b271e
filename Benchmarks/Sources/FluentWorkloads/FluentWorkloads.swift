#if Fluent
    import FluentKit

    // Typical Fluent work, written once, run on the Strata driver and on
    // fluent-sqlite-driver (fluent-throughput). The tables come from
    // `FluentFixture.schema` (StrataAPIWorkloads): 1,000 authors with 10
    // posts each.

    public final class Author: Model, @unchecked Sendable {
        public static let schema = "author"
        @ID(custom: "id", generatedBy: .database) public var id: Int?
        @Field(key: "name") public var name: String
        @Children(for: \.$author) public var posts: [Post]

        public init() {}
    }

    public final class Post: Model, @unchecked Sendable {
        public static let schema = "post"
        @ID(custom: "id", generatedBy: .database) public var id: Int?
        @Parent(key: "author_id") public var author: Author
        @Field(key: "title") public var title: String
        @Field(key: "score") public var score: Int

        public init() {}

        public init(authorID: Int, title: String, score: Int) {
            self.$author.id = authorID
            self.title = title
            self.score = score
        }
    }

    /// The workloads; each returns a checksum of what it read.
    public enum FluentWork {
        /// `count` posts found by id.
        public static func findByID(_ db: any Database, count: Int, seed: Int = 0) async throws -> Int {
            var sum = 0
            for i in 0..<count {
                let id = 1 + (seed &+ i &* 7907) % 10_000
                sum &+= try await Post.find(id, on: db)?.score ?? 0
            }
            return sum
        }

        /// `count` pages of 50 posts, filtered by score and sorted.
        public static func page(_ db: any Database, count: Int, seed: Int = 0) async throws -> Int {
            var total = 0
            for i in 0..<count {
                let threshold = (seed &+ i &* 37) % 9_000
                total &+= try await Post.query(on: db).filter(\.$score > threshold).sort(\.$score, .descending)
                    .limit(50).all().count
            }
            return total
        }

        /// `count` times, 20 authors with their posts (eager loading).
        public static func eagerLoad(_ db: any Database, count: Int, seed: Int = 0) async throws -> Int {
            var total = 0
            for i in 0..<count {
                let first = (seed &+ i &* 13) % 980
                let authors = try await Author.query(on: db).filter(\.$id > first).sort(\.$id).limit(20)
                    .with(\.$posts).all()
                total &+= authors.reduce(0) { $0 + $1.posts.count }
            }
            return total
        }

        /// `count` posts created, each in its own implicit transaction.
        public static func create(_ db: any Database, count: Int, seed: Int = 0) async throws -> Int {
            for i in 0..<count {
                try await Post(authorID: 1 + (seed &+ i) % 1_000, title: "new", score: i).create(on: db)
            }
            return count
        }

        /// 1,000 posts created in one transaction.
        public static func batch(_ db: any Database, seed: Int = 0) async throws -> Int {
            try await db.transaction { db in
                for i in 0..<1_000 {
                    try await Post(authorID: 1 + (seed &+ i) % 1_000, title: "batch", score: i).create(on: db)
                }
            }
            return 1_000
        }

        /// One step of the concurrent mix: four finds, a page, a create.
        public static func mixStep(_ db: any Database, step: Int) async throws -> Int {
            var sum = try await findByID(db, count: 4, seed: step)
            sum &+= try await page(db, count: 1, seed: step)
            sum &+= try await create(db, count: 1, seed: step)
            return sum
        }
    }
#endif
