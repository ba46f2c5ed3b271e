import ExampleTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import StrataServerApp
import Testing
import Tracing

/// The tracer of Hummingbird's tracing middleware is the one bootstrapped in
/// `InstrumentationSystem`, once per process.
let tracer: InMemoryTracer = {
    let tracer = InMemoryTracer()
    InstrumentationSystem.bootstrap(tracer)
    return tracer
}()

/// A request traced by its client: the headers that carry the client's trace
/// and span (what `traceparent` does with OpenTelemetry). Each test uses a
/// trace of its own, and finds its spans among those of the tests that run
/// at the same time.
struct ClientTrace {
    let traceID = UUID().uuidString
    let spanID = "client"

    var headers: HTTPFields {
        [
            HTTPField.Name(InMemoryTracer.traceIDKey)!: traceID,
            HTTPField.Name(InMemoryTracer.spanIDKey)!: spanID,
        ]
    }

    /// The spans of the trace that ended.
    var spans: [FinishedInMemorySpan] { tracer.finishedSpans.filter { $0.traceID == traceID } }

    /// The spans of the trace that did not end.
    var activeSpans: [InMemorySpan] { tracer.activeSpans.filter { $0.traceID == traceID } }

    /// All spans of the trace, ended or not.
    var allSpans: [any TestSpan] { spans + activeSpans }
}

/// What the tests read of a span, ended or not.
protocol TestSpan {
    var operationName: String { get }
    var traceID: String { get }
    var parentSpanID: String? { get }
    var attributes: SpanAttributes { get }
}

extension TestSpan {
    /// The SQL of a statement span.
    var query: String {
        guard case .string(let sql) = attributes["db.query.text"]?.toSpanAttribute() else { return "" }
        return sql
    }
}

extension FinishedInMemorySpan: TestSpan {}
extension InMemorySpan: TestSpan {}

@Suite("Tracing")
struct TracingTests {
    @Test("One traced request shows its database spans under the HTTP span")
    func databaseSpansUnderTheHTTPSpan() async throws {
        let tracer = tracer
        let server = try TestServer { options in
            options.integrations = true
            options.tracer = tracer
        }
        try await server.app.test(.router) { client in
            let author = try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin")).decode(
                Author.self)
            let id = try #require(author.id)
            try await client.post("/authors/\(id)/books", json: NewBook(title: "The Dispossessed"))

            let trace = ClientTrace()
            try await client.execute(uri: "/authors/\(id)", method: .get, headers: trace.headers) {
                #expect($0.status == .ok)
            }
            let spans = trace.spans

            // The HTTP span, child of the client's span.
            let http = try #require(spans.first { $0.kind == .server })
            #expect(http.operationName == "/authors/{id}")
            #expect(http.parentSpanID == trace.spanID)

            // The request reads once: one `db.read` span, child of the HTTP span...
            let reads = spans.filter { $0.operationName == "db.read" }
            #expect(reads.count == 1)
            let read = try #require(reads.first)
            #expect(read.traceID == http.traceID)
            #expect(read.parentSpanID == http.spanID)
            #expect(read.kind == .client)
            #expect(read.attributes["db.system"]?.toSpanAttribute() == "sqlite")

            // ... whose statements are its children: the author, then their
            // books (including(all:) prefetches them with a second query).
            let statements = trace.allSpans.filter { $0.parentSpanID == read.spanID }
            #expect(statements.allSatisfy { $0.traceID == http.traceID })
            #expect(statements.contains { $0.operationName == "SELECT" && $0.query.contains(#"FROM "author""#) })
            #expect(statements.contains { $0.operationName == "SELECT" && $0.query.contains(#"FROM "book""#) })

            // Every span of the trace descends from the HTTP span (the
            // statements that set up a new reader connection are children of
            // the HTTP span itself).
            let byID = Dictionary(spans.map { ($0.spanID, $0) }, uniquingKeysWith: { first, _ in first })
            for span in spans where span.spanID != http.spanID {
                var ancestor = span.parentSpanID
                while let spanID = ancestor, spanID != http.spanID { ancestor = byID[spanID]?.parentSpanID }
                #expect(ancestor == http.spanID, "\(span.operationName) is not under the HTTP span")
            }

            // Once the response is sent, every span of the request has ended.
            let open = trace.activeSpans.map { "\($0.operationName): \($0.query)" }
            #expect(open == [])
        }
    }

    @Test("Without Hummingbird's middleware (--no-middleware), Strata still traces the database, with no HTTP span")
    func databaseSpansWithoutMiddleware() async throws {
        let databaseTracer = InMemoryTracer()
        let server = try TestServer { options in
            options.integrations = true
            options.middleware = false
            options.tracer = databaseTracer
        }
        try await server.app.test(.router) { client in
            let author = try await client.post("/authors", json: NewAuthor(name: "Octavia E. Butler")).decode(
                Author.self)
            let id = try #require(author.id)
            let trace = ClientTrace()
            try await client.execute(uri: "/authors/\(id)", method: .get, headers: trace.headers) {
                #expect($0.status == .ok)
            }
            // No tracing middleware: the client's trace has no HTTP span.
            #expect(trace.spans.isEmpty)
            // Strata's integration reports to its own tracer, outside of it.
            let accesses = databaseTracer.finishedSpans.filter { $0.operationName.hasPrefix("db.") }
            #expect(accesses.contains { $0.operationName == "db.read" })
            #expect(accesses.contains { $0.operationName == "db.write" })
            #expect(accesses.allSatisfy { $0.traceID != trace.traceID })
        }
    }

    @Test("The write of a POST is a `db.write` span under its HTTP span, with its INSERT")
    func writeSpans() async throws {
        let tracer = tracer
        let server = try TestServer { options in options.tracer = tracer }
        try await server.app.test(.router) { client in
            let name = "Author of the write test"
            let trace = ClientTrace()
            var headers = trace.headers
            headers[.contentType] = "application/json"
            try await client.execute(
                uri: "/authors", method: .post, headers: headers,
                body: ByteBuffer(data: try JSONEncoder().encode(NewAuthor(name: name)))
            ) { #expect($0.status == .created) }
            let spans = trace.spans
            let http = try #require(spans.first { $0.kind == .server })
            #expect(http.operationName == "/authors")
            let write = try #require(spans.first { $0.operationName == "db.write" })
            #expect(write.parentSpanID == http.spanID)
            let insert = try #require(spans.first { $0.operationName == "INSERT" })
            #expect(insert.parentSpanID == write.spanID)
            #expect(insert.attributes["db.response.affected_rows"]?.toSpanAttribute() == 1)
            // Statement spans carry the SQL, never its arguments.
            #expect(!"\(spans.map(\.attributes))".contains(name))
        }
    }
}
