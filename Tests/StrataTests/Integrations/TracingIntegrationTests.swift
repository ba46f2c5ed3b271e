#if Tracing
    import Foundation
    import InMemoryTracing
    import Strata
    import StrataTestSupport
    import Testing
    import Tracing

    /// A configuration whose accesses and statements are spans of `tracer`.
    private func tracingConfiguration(_ tracer: InMemoryTracer) -> Configuration {
        var config = Configuration()
        config.tracing = DatabaseTracing(tracer: tracer)
        return config
    }

    @Suite("Tracing integration (swift-distributed-tracing)")
    struct TracingIntegrationTests {
        // Both async paths: in the caller's task, and on a continuation
        // (systems without task executors), where the parent span is the
        // one of the task that waits.
        @Test("Accesses and statements are spans under the caller's span", arguments: AsyncWriterKind.allCases)
        func spans(kind: AsyncWriterKind) async throws {
            let tracer = InMemoryTracer()
            let directory = try TemporaryDirectory()
            let dbQueue = try kind.open(directory, configuration: tracingConfiguration(tracer))
            try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
            tracer.clearAll()
            let parent = tracer.startSpan("request", context: .topLevel, ofKind: .server)
            try await ServiceContext.withValue(parent.context) {
                try await dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"])
                }
            }
            parent.end()
            let spans = tracer.finishedSpans
            let request = try #require(spans.first { $0.operationName == "request" })
            let access = try #require(spans.first { $0.operationName == "db.write" })
            #expect(access.parentSpanID == request.spanID)
            #expect(access.traceID == request.traceID)
            let insert = try #require(spans.first { $0.operationName == "INSERT" })
            #expect(insert.parentSpanID == access.spanID)
            #expect(insert.attributes["db.system"]?.toSpanAttribute() == "sqlite")
            #expect(insert.attributes["db.query.text"]?.toSpanAttribute() == "INSERT INTO t VALUES (?)")
            #expect(insert.attributes["db.operation.name"]?.toSpanAttribute() == "INSERT")
            #expect(insert.attributes["db.response.affected_rows"]?.toSpanAttribute() == 1)
            #expect(!"\(spans.map(\.attributes))".contains("secret"))
            // BEGIN and COMMIT are statements of the access too.
            #expect(spans.contains { $0.operationName == "BEGIN" && $0.parentSpanID == access.spanID })
            #expect(spans.contains { $0.operationName == "COMMIT" && $0.parentSpanID == access.spanID })
        }

        @Test("Statements stopped before their end (fetchOne, a dropped cursor) end their span with the access")
        func statementsStoppedEarly() throws {
            let tracer = InMemoryTracer()
            let dbQueue = try DatabaseQueue(configuration: tracingConfiguration(tracer))
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2), (3)")
            }
            tracer.clearAll()
            try dbQueue.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT a FROM t ORDER BY a")
                _ = try Row.fetchOne(db, sql: "SELECT a FROM t ORDER BY a DESC")
                let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t WHERE a > 1")
                _ = try cursor.next()
            }
            #expect(tracer.activeSpans.isEmpty)
            let spans = tracer.finishedSpans
            // A queue's accesses all run on its writer connection.
            let access = try #require(spans.first { $0.operationName == "db.write" })
            let selects = spans.filter { $0.operationName == "SELECT" }
            #expect(selects.count == 3)
            #expect(selects.allSatisfy { $0.parentSpanID == access.spanID })
            for text in [
                "SELECT a FROM t ORDER BY a", "SELECT a FROM t ORDER BY a DESC", "SELECT a FROM t WHERE a > 1",
            ] {
                #expect(selects.contains { $0.attributes["db.query.text"]?.toSpanAttribute() == .string(text) })
            }
        }

        @Test("A failed statement records its error")
        func failure() throws {
            let tracer = InMemoryTracer()
            let dbQueue = try DatabaseQueue(configuration: tracingConfiguration(tracer))
            _ = try? dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM missing") }
            let spans = tracer.finishedSpans
            let access = try #require(spans.first { $0.operationName == "db.write" || $0.operationName == "db.read" })
            #expect(access.status?.code == .error)
            #expect(!access.errors.isEmpty)
        }
    }
#endif
