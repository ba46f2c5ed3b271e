import ExampleTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import StrataServerApp
import Testing

@Suite("Database reports")
struct DatabaseReportsTests {
    /// The body of `GET /diagnostics/statements`.
    struct StatementsReport: Decodable {
        var statements: [Statement]
        struct Statement: Decodable { var sql: String }
    }

    /// Runs a write and a read on a server with `reports`, and returns the
    /// database spans of its tracer and the statements its diagnostics saw.
    private func run(reports: Set<DatabaseReport>) async throws -> (spans: [String], statements: [String]) {
        let databaseTracer = InMemoryTracer()
        let server = try TestServer { options in
            options.integrations = true
            options.middleware = false
            options.tracer = databaseTracer
            options.databaseReports = reports
        }
        let statements = try await server.app.test(.router) { client in
            try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin"))
            _ = try await client.get("/authors", as: [Author].self)
            return try await client.get("/diagnostics/statements", as: StatementsReport.self).statements.map(\.sql)
        }
        return (databaseTracer.finishedSpans.map(\.operationName), statements)
    }

    @Test("--database-reports tracing: the database's spans, and no diagnostics")
    func tracingAlone() async throws {
        let (spans, statements) = try await run(reports: [.tracing])
        #expect(spans.contains("db.read"))
        #expect(spans.contains("db.write"))
        #expect(statements.isEmpty)
    }

    @Test("--database-reports diagnostics: the statement statistics, and no span")
    func diagnosticsAlone() async throws {
        let (spans, statements) = try await run(reports: [.diagnostics])
        #expect(spans.isEmpty)
        #expect(statements.contains { $0.contains(#"FROM "author""#) })
    }

    @Test("--database-reports logging,metrics: neither spans nor diagnostics")
    func loggingAndMetrics() async throws {
        let (spans, statements) = try await run(reports: [.logging, .metrics])
        #expect(spans.isEmpty)
        #expect(statements.isEmpty)
    }

    @Test("--database-reports reads a comma-separated list, and refuses an unknown name")
    func parsing() throws {
        #expect(try DatabaseReport.set(fromList: "logging, metrics,") == [.logging, .metrics])
        #expect(try DatabaseReport.set(fromList: "") == [])
        #expect(try DatabaseReport.set(fromList: "tracing,diagnostics,tracing") == [.tracing, .diagnostics])
        #expect(throws: UnknownDatabaseReport.self) { try DatabaseReport.set(fromList: "metrics,traces") }
    }
}
