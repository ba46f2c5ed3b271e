import Foundation
import StrataSQLite

/// An FTS5 tokenizer: a built-in one from ``Database/makeTokenizer(_:)``, or
/// a custom tokenizer (``FTS5CustomTokenizer``).
public protocol FTS5Tokenizer: AnyObject {
    /// Tokenizes the `nText` bytes of UTF-8 text at `pText`, calling
    /// `tokenCallback` with `context` for each token. Returns `SQLITE_OK`,
    /// or an error code.
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt
}

extension FTS5Tokenizer {
    /// Returns the tokens of a string, tokenized as a document.
    ///
    /// ```swift
    /// let tokenizer = try db.makeTokenizer(.porter())
    /// try tokenizer.tokenize(document: "Databases")  // [("databas", [])]
    /// ```
    public func tokenize(document string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokenize(string, for: .document)
    }

    /// Returns the tokens of a string, tokenized as a query.
    public func tokenize(query string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokenize(string, for: .query)
    }

    private func tokenize(
        _ string: String,
        for tokenization: FTS5Tokenization
    ) throws -> [(token: String, flags: FTS5TokenFlags)] {
        var tokens: [(token: String, flags: FTS5TokenFlags)] = []
        var utf8 = Array(string.utf8CString)
        let code = withUnsafeMutablePointer(to: &tokens) { tokensPointer in
            utf8.withUnsafeMutableBufferPointer { buffer in
                tokenize(
                    context: tokensPointer, tokenization: tokenization, pText: buffer.baseAddress,
                    nText: CInt(buffer.count - 1)
                ) { context, flags, pToken, nToken, _, _ in
                    guard let tokens = context?.assumingMemoryBound(to: [(token: String, flags: FTS5TokenFlags)].self)
                    else { return SQLITE_ERROR }
                    let bytes = UnsafeRawBufferPointer(start: pToken, count: Int(nToken))
                    tokens.pointee.append((String(decoding: bytes, as: UTF8.self), FTS5TokenFlags(rawValue: flags)))
                    return SQLITE_OK
                }
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "tokenization failed")
        }
        return tokens
    }
}

/// A tokenizer implemented in C and found through the FTS5 API, such as
/// the built-in "unicode61", "ascii" and "porter" tokenizers.
final class FTS5CTokenizer: FTS5Tokenizer {
    private let tokenizerPointer: OpaquePointer
    private let tokenizer: fts5_tokenizer

    init(db: Database, descriptor: FTS5TokenizerDescriptor) throws {
        let api = try FTS5.fetchAPI(db)
        var userData: UnsafeMutableRawPointer? = nil
        var tokenizer = fts5_tokenizer()
        var code = api.pointee.xFindTokenizer(
            UnsafeMutablePointer(mutating: api), descriptor.name, &userData, &tokenizer)
        guard code == SQLITE_OK, let xCreate = tokenizer.xCreate else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: "no such tokenizer: \(descriptor.name)")
        }
        let arguments = descriptor.arguments.map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var cArguments = arguments.map { UnsafePointer<CChar>($0) }
        var tokenizerPointer: OpaquePointer? = nil
        code = cArguments.withUnsafeMutableBufferPointer { buffer in
            xCreate(userData, buffer.baseAddress, CInt(buffer.count), &tokenizerPointer)
        }
        guard code == SQLITE_OK, let tokenizerPointer else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "failed to create tokenizer: \(descriptor.components.joined(separator: " "))")
        }
        self.tokenizer = tokenizer
        self.tokenizerPointer = tokenizerPointer
    }

    deinit {
        tokenizer.xDelete?(tokenizerPointer)
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        guard let xTokenize = tokenizer.xTokenize else { return SQLITE_ERROR }
        return xTokenize(tokenizerPointer, context, tokenization.rawValue, pText, nText, tokenCallback)
    }
}

extension Database {
    /// Returns an FTS5 tokenizer, built-in or added with ``add(tokenizer:)``:
    ///
    /// ```swift
    /// let unicode61 = try db.makeTokenizer(.unicode61())
    /// try unicode61.tokenize(document: "Gustave Doré")  // gustave, dore
    /// ```
    public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
        try FTS5CTokenizer(db: self, descriptor: descriptor)
    }
}
