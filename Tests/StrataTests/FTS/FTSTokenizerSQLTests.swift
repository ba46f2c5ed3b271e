import Strata
import StrataTestSupport
import Testing

/// A tokenizer of FTS3 or FTS5, and the module argument it becomes in the
/// SQL that creates a table.
private enum TokenizerCase: Sendable, CustomTestStringConvertible {
    case fts3(FTS3TokenizerDescriptor, String)
    case fts5(FTS5TokenizerDescriptor, String)

    var testDescription: String {
        switch self {
        case .fts3(_, let argument): "fts3 \(argument)"
        case .fts5(_, let argument): "fts5 \(argument)"
        }
    }

    /// The statement that creates the table `document(content)` with the
    /// tokenizer: FTS3 writes the tokenizer first, FTS5 last.
    var expectedSQL: String {
        switch self {
        case .fts3(_, let argument): #"CREATE VIRTUAL TABLE "document" USING fts3(\#(argument), content)"#
        case .fts5(_, let argument): #"CREATE VIRTUAL TABLE "document" USING fts5(content, \#(argument))"#
        }
    }

    /// Creates the table `document(content)` with the tokenizer.
    func createTable(_ db: Database) throws {
        switch self {
        case .fts3(let tokenizer, _):
            try db.create(virtualTable: "document", using: FTS3()) { t in
                t.tokenizer = tokenizer
                t.column("content")
            }
        case .fts5(let tokenizer, _):
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = tokenizer
                t.column("content")
            }
        }
    }
}

/// The tokenizers of the FTS3 and FTS5 table definitions, in the SQL of the
/// tables.
struct FTSTokenizerSQLTests {
    @Test(
        arguments: [
            .fts3(.simple, "tokenize=simple"),
            .fts3(.porter, "tokenize=porter"),
            .fts3(.unicode61(), "tokenize=unicode61"),
            .fts3(.unicode61(removeDiacritics: false), #"tokenize=unicode61 "remove_diacritics=0""#),
            .fts3(.unicode61(diacritics: .keep), #"tokenize=unicode61 "remove_diacritics=0""#),
            .fts3(.unicode61(diacritics: .remove), #"tokenize=unicode61 "remove_diacritics=2""#),
            .fts3(
                .unicode61(separators: ["X", "."], tokenCharacters: ["-"]),
                #"tokenize=unicode61 "separators=.X" "tokenchars=-""#
            ),
            .fts5(.unicode61(), "tokenize='''unicode61'''"),
            .fts5(.unicode61(removeDiacritics: false), "tokenize='''unicode61'' ''remove_diacritics'' ''0'''"),
            .fts5(.unicode61(diacritics: .keep), "tokenize='''unicode61'' ''remove_diacritics'' ''0'''"),
            .fts5(.unicode61(diacritics: .remove), "tokenize='''unicode61'' ''remove_diacritics'' ''2'''"),
            .fts5(.unicode61(categories: "L* N* Co"), "tokenize='''unicode61'' ''categories'' ''L* N* Co'''"),
            .fts5(
                .unicode61(separators: ["X", "'"], tokenCharacters: ["-"]),
                "tokenize='''unicode61'' ''separators'' ''''''X'' ''tokenchars'' ''-'''"
            ),
            .fts5(.ascii, "tokenize='''ascii'''"),
            .fts5(.ascii(), "tokenize='''ascii'''"),
            .fts5(
                .ascii(separators: ["X"], tokenCharacters: ["_"]),
                "tokenize='''ascii'' ''separators'' ''X'' ''tokenchars'' ''_'''"
            ),
            .fts5(.porter(), "tokenize='''porter'''"),
            .fts5(.porter(.ascii), "tokenize='''porter'' ''ascii'''"),
            .fts5(.porter(wrapping: .ascii()), "tokenize='''porter'' ''ascii'''"),
            .fts5(
                .porter(.unicode61(removeDiacritics: false)),
                "tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''0'''"
            ),
            .fts5(FTS5TokenizerDescriptor(components: ["trigram"]), "tokenize='''trigram'''"),
        ] as [TokenizerCase])
    fileprivate func tokenizerSQL(_ tokenizer: TokenizerCase) throws {
        try DatabaseQueue().write { db throws in
            let sql = try recordSQL(db, .changes) { try tokenizer.createTable(db) }
            #expect(sql == [tokenizer.expectedSQL])
        }
    }
}
