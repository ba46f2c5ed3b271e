import Foundation
import Strata
import StrataTestSupport
import Testing

/// The FTS5 C API is found through a pointer that SQLite compares while the
/// statement runs: its type string must outlive the statement.
struct FTS5APITests {
    /// Allocates and fills memory, so that freed memory gets reused.
    private func churnMemory() {
        var strings: [String] = []
        for i in 0..<200 {
            strings.append(String(repeating: "fts5_api_ptr\(i)", count: 8))
        }
        _ = strings.map(\.count).reduce(0, +)
    }

    @Test("Built-in tokenizers work with a trace function and under memory churn")
    func builtInTokenizers() throws {
        try DatabaseQueue().inDatabase { db throws in
            var traced = 0
            db.trace { _ in traced += 1 }
            for _ in 0..<300 {
                churnMemory()
                let porter = try db.makeTokenizer(.porter())
                #expect(try porter.tokenize(query: "databases").map(\.token) == ["databas"])
                let ascii = try db.makeTokenizer(.ascii())
                #expect(try ascii.tokenize(document: "Doré").map(\.token) == ["doré"])
            }
            #expect(traced > 0)
        }
    }

    @Test("FTS5.api finds the API on every connection, many times")
    func apiPointer() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.inDatabase { db in
            db.trace { _ in }
            let first = FTS5.api(db)
            for _ in 0..<300 {
                churnMemory()
                #expect(FTS5.api(db) == first)
            }
        }
    }

    /// A tokenizer that wraps unicode61 and lowercases nothing more.
    private final class WrapperTokenizer: FTS5WrapperTokenizer {
        static let name = "strata_api_wrapper"
        let wrappedTokenizer: any FTS5Tokenizer

        init(db: Database, arguments: [String]) throws {
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        }

        func accept(
            token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
            tokenCallback: (String, FTS5TokenFlags) throws -> Void
        ) throws {
            try tokenCallback(token, flags)
        }
    }

    @Test("Wrapper tokenizers register and tokenize under a trace and memory churn")
    func wrapperTokenizer() throws {
        try DatabaseQueue().inDatabase { db throws in
            db.trace { _ in }
            db.add(tokenizer: WrapperTokenizer.self)
            for _ in 0..<100 {
                churnMemory()
                let tokenizer = try db.makeTokenizer(WrapperTokenizer.tokenizerDescriptor())
                #expect(try tokenizer.tokenize(query: "Gustave Doré").map(\.token) == ["gustave", "dore"])
            }
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.tokenizer = WrapperTokenizer.tokenizerDescriptor()
                t.column("title")
            }
            try db.execute(sql: "INSERT INTO book VALUES ('Gustave Doré')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE book MATCH 'dore'") == 1)
        }
    }
}
