#if Fluent
    import FluentKit
    import NIOConcurrencyHelpers

    /// The floor of any Fluent driver: a database that runs no SQL and
    /// answers each query with rows made up in memory, of the size the
    /// real ones have (a find: one post; a page: its limit; the posts of
    /// eager loading: 10 per author; a create: its new id). What the
    /// workloads cost on it is FluentKit's own work (building queries,
    /// decoding models, eager loading), which every driver pays on top of
    /// its own.
    public struct CannedDatabase: Database {
        public let context: DatabaseContext
        private let nextID = NIOLockedValueBox(100_000)

        public init(context: DatabaseContext) {
            self.context = context
        }

        public var inTransaction: Bool { false }

        public func execute(
            query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> Void
        ) -> EventLoopFuture<Void> {
            let outputs = self.outputs(for: query)
            let promise = eventLoop.makePromise(of: Void.self)
            eventLoop.execute {
                for output in outputs { onOutput(output) }
                promise.succeed(())
            }
            return promise.futureResult
        }

        private func outputs(for query: DatabaseQuery) -> [CannedOutput] {
            switch query.action {
            case .create:
                let id = nextID.withLockedValue { id in
                    id += 1
                    return id
                }
                return [CannedOutput(values: ["id": id])]
            case .read:
                var count = 200
                if case .count(let limit)? = query.limits.first { count = limit }
                return (0..<count).map { index in
                    if query.schema == Post.schema {
                        return CannedOutput(values: [
                            "post_id": index + 1, "post_author_id": 1 + index / 10, "post_title": "post \(index)",
                            "post_score": index + 1,
                        ])
                    }
                    return CannedOutput(values: ["author_id": index + 1, "author_name": "author \(index)"])
                }
            default:
                return []
            }
        }

        public func execute(schema: DatabaseSchema) -> EventLoopFuture<Void> { eventLoop.makeSucceededVoidFuture() }

        public func execute(enum: DatabaseEnum) -> EventLoopFuture<Void> { eventLoop.makeSucceededVoidFuture() }

        public func transaction<T>(
            _ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>
        ) -> EventLoopFuture<T> {
            closure(self)
        }

        public func withConnection<T>(
            _ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>
        ) -> EventLoopFuture<T> {
            closure(self)
        }
    }

    /// A made-up row: values by column name (`<schema>_<field>`).
    struct CannedOutput: DatabaseOutput {
        struct Missing: Error {}

        let values: [String: any Sendable]
        var schema: String?

        var description: String { "\(values)" }

        func schema(_ schema: String) -> any DatabaseOutput {
            CannedOutput(values: values, schema: schema)
        }

        private func column(_ key: FieldKey) -> String {
            schema.map { "\($0)_\(key.description)" } ?? key.description
        }

        func contains(_ key: FieldKey) -> Bool { values[column(key)] != nil }

        func decodeNil(_ key: FieldKey) throws -> Bool { values[column(key)] == nil }

        func decode<T: Decodable>(_ key: FieldKey, as type: T.Type) throws -> T {
            guard let value = values[column(key)] as? T else { throw Missing() }
            return value
        }
    }

    /// Fluent's configuration of ``CannedDatabase``.
    public struct CannedConfiguration: DatabaseConfiguration {
        public var middleware: [any AnyModelMiddleware] = []

        public init() {}

        public func makeDriver(for databases: Databases) -> any DatabaseDriver { CannedDriver() }
    }

    struct CannedDriver: DatabaseDriver {
        func makeDatabase(with context: DatabaseContext) -> any Database { CannedDatabase(context: context) }
        func shutdown() {}
    }
#endif
