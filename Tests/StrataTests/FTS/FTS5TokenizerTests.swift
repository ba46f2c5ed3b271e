import Strata
import StrataTestSupport
import Testing

/// A tokenizer that splits on spaces and lowercases, in Swift.
private final class SpaceTokenizer: FTS5CustomTokenizer {
    static let name = "space"
    let uppercase: Bool

    /// With the argument "fail", the tokenizer fails to be created.
    init(db: Database, arguments: [String]) throws {
        if arguments == ["fail"] {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "nope")
        }
        uppercase = arguments == ["upper"]
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        guard let pText else { return 0 }
        let bytes = Array(
            UnsafeBufferPointer(start: UnsafeRawPointer(pText).assumingMemoryBound(to: UInt8.self), count: Int(nText)))
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 32 {
            if index > start {
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                var token = Array((uppercase ? word.uppercased() : word.lowercased()).utf8)
                let code = token.withUnsafeMutableBytes { buffer in
                    tokenCallback(
                        context, 0, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), CInt(buffer.count),
                        CInt(start), CInt(index))
                }
                if code != 0 { return code }
            }
            start = index + 1
        }
        return 0
    }
}

/// A wrapper tokenizer that drops stop words and adds synonyms.
private final class SynonymTokenizer: FTS5WrapperTokenizer {
    static let name = "synonyms"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        if arguments.isEmpty {
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        } else {
            wrappedTokenizer = try db.makeTokenizer(FTS5TokenizerDescriptor(components: arguments))
        }
    }

    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback
    ) throws {
        if token == "the" { return }
        try tokenCallback(token, flags)
        if token == "first" && tokenization.contains(.document) {
            try tokenCallback("1st", .colocated)
        }
    }
}

struct FTS5TokenizerTests {
    @Test func builtInTokenizers() throws {
        try DatabaseQueue().inDatabase { db throws in
            let unicode61 = try db.makeTokenizer(.unicode61())
            #expect(try unicode61.tokenize(document: "Gustave Doré").map(\.token) == ["gustave", "dore"])
            #expect(try unicode61.tokenize(query: "JÉRÔME").map(\.token) == ["jerome"])
            let ascii = try db.makeTokenizer(.ascii())
            #expect(try ascii.tokenize(document: "Gustave Doré").map(\.token) == ["gustave", "doré"])
            let porter = try db.makeTokenizer(.porter())
            #expect(try porter.tokenize(document: "Databases frustrated").map(\.token) == ["databas", "frustrat"])
            let keep = try db.makeTokenizer(.unicode61(diacritics: .keep))
            #expect(try keep.tokenize(document: "Doré").map(\.token) == ["doré"])
            #expect(try keep.tokenize(document: "").isEmpty)
            #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["no_such_tokenizer"]))
            }
            #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "bad_option", "1"]))
            }
        }
    }

    /// The number of documents that match the raw FTS5 `pattern`.
    private func matchCount(_ db: Database, _ pattern: String) throws -> Int {
        try FTSDocument.matching(FTS5Pattern(rawPattern: pattern)).fetchCount(db)
    }

    @Test func customTokenizer() throws {
        try DatabaseQueue().write { db throws in
            db.add(tokenizer: SpaceTokenizer.self)
            #expect(SpaceTokenizer.tokenizerDescriptor().components == ["space"])
            #expect(SpaceTokenizer.tokenizerDescriptor(arguments: ["upper"]).components == ["space", "upper"])
            let sql = try recordSQL(db, .changes) {
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    t.tokenizer = SpaceTokenizer.tokenizerDescriptor()
                    t.column("content")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "document" USING fts5(content, tokenize='''space''')"#])
            try db.execute(sql: "INSERT INTO document (content) VALUES ('Moby-Dick Jérôme')")
            #expect(try matchCount(db, "\"moby-dick\"") == 1)
            #expect(try matchCount(db, "\"MOBY-DICK\"") == 1)
            #expect(try matchCount(db, "moby") == 0)
            #expect(try matchCount(db, "\"jérôme\"") == 1)
            #expect(try matchCount(db, "\"jerome\"") == 0)

            let tokenizer = try db.makeTokenizer(SpaceTokenizer.tokenizerDescriptor(arguments: ["upper"]))
            #expect(try tokenizer.tokenize(document: "a  b").map(\.token) == ["A", "B"])
        }
    }

    @Test func wrapperTokenizer() throws {
        try DatabaseQueue().write { db throws in
            db.add(tokenizer: SynonymTokenizer.self)
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = SynonymTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document (content) VALUES ('The first Émile')")
            #expect(try matchCount(db, "first") == 1)
            #expect(try matchCount(db, "\"1st\"") == 1)
            #expect(try matchCount(db, "emile") == 1)
            #expect(try matchCount(db, "the") == 0)

            let tokenizer = try db.makeTokenizer(SynonymTokenizer.tokenizerDescriptor(arguments: ["ascii"]))
            let tokens = try tokenizer.tokenize(document: "The FIRST Émile")
            #expect(tokens.map(\.token) == ["first", "1st", "Émile"])
            #expect(tokens.map(\.flags) == [[], .colocated, []])
            #expect(try tokenizer.tokenize(query: "the first").map(\.token) == ["first"])
        }
    }

    @Test func failingTokenizer() throws {
        try DatabaseQueue().write { db throws in
            db.add(tokenizer: SpaceTokenizer.self)
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    t.tokenizer = SpaceTokenizer.tokenizerDescriptor(arguments: ["fail"])
                    t.column("content")
                }
            }
        }
    }

    @Test func tokenizationFlags() {
        #expect(FTS5Tokenization.query.rawValue == 1)
        #expect(FTS5Tokenization.prefix.rawValue == 2)
        #expect(FTS5Tokenization.document.rawValue == 4)
        #expect(FTS5Tokenization.aux.rawValue == 8)
        #expect(FTS5TokenFlags.colocated.rawValue == 1)
        #expect(FTS5TokenFlags(rawValue: 1) == .colocated)
    }
}
