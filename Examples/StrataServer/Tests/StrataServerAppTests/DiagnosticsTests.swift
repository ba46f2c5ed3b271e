import ExampleTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Strata
import StrataServerApp
import Testing

@Suite("Diagnostic routes")
struct DiagnosticsTests {
    /// The body of `GET /diagnostics/statements`.
    struct StatementsReport: Decodable {
        var statements: [StatementStatistics]
    }

    @Test("GET /diagnostics/statements ranks the statements the routes ran; DELETE starts over")
    func statements() async throws {
        let server = try TestServer()
        try await server.app.test(.router) { client in
            try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin"))
            for _ in 0..<3 { _ = try await client.get("/authors", as: [Author].self) }

            let report = try await client.get("/diagnostics/statements", as: StatementsReport.self)
            let authors = try #require(
                report.statements.first { $0.sql == #"SELECT * FROM "author" ORDER BY "name", "id""# })
            #expect(authors.executionCount == 3)
            #expect(authors.rowCount == 3)
            #expect(authors.tableName == "author")
            let totals = report.statements.map(\.totalDuration)
            #expect(totals == totals.sorted(by: >))

            try await client.execute(uri: "/diagnostics/statements", method: .delete) {
                #expect($0.status == .noContent)
            }
            let empty = try await client.get("/diagnostics/statements", as: StatementsReport.self)
            #expect(!empty.statements.contains { $0.sql.contains("ORDER BY") })
        }
    }

    @Test("GET /diagnostics/storage gives the storage health report, WAL included")
    func storage() async throws {
        let server = try TestServer()
        try await server.app.test(.router) { client in
            try await client.post("/authors", json: NewAuthor(name: "Ursula K. Le Guin"))
            try await client.execute(uri: "/diagnostics/storage", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.hasPrefix("pages: "))
                #expect(text.contains("journal: wal"))
                #expect(text.contains(" frames in use ("))
            }
        }
    }

    @Test("GET /diagnostics/sqlite describes the linked SQLite")
    func sqlite() async throws {
        let server = try TestServer()
        try await server.app.test(.router) { client in
            try await client.execute(uri: "/diagnostics/sqlite", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.hasPrefix("SQLite 3."))
                #expect(text.contains("RETURNING"))
            }
        }
    }
}
