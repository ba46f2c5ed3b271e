import StrataSQLite

/// A custom FTS5 tokenizer that processes the tokens of another tokenizer:
/// it can drop tokens (stop words), change them (normalization), or add
/// synonyms with the ``FTS5TokenFlags/colocated`` flag.
///
/// ```swift
/// final class LowercaseTokenizer: FTS5WrapperTokenizer {
///     static let name = "lowercase"
///     let wrappedTokenizer: any FTS5Tokenizer
///
///     init(db: Database, arguments: [String]) throws {
///         wrappedTokenizer = try db.makeTokenizer(.unicode61())
///     }
///
///     func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
///                 tokenCallback: FTS5WrapperTokenCallback) throws {
///         try tokenCallback(token.lowercased(), flags)
///     }
/// }
/// ```
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer whose tokens are processed.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Processes a token of the wrapped tokenizer: calls `tokenCallback`
    /// zero, one or several times with output tokens.
    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback
    ) throws
}

/// The error thrown when the FTS5 token callback returns an error code.
private struct FTS5TokenCallbackError: Error {
    var code: CInt
}

/// The state of a wrapper tokenization, given as context to the wrapped
/// tokenizer.
private struct FTS5WrapperTokenization {
    var tokenizer: any FTS5WrapperTokenizer
    var tokenization: FTS5Tokenization
    var context: UnsafeMutableRawPointer?
    var tokenCallback: FTS5TokenCallback

    /// Handles a token of the wrapped tokenizer.
    func accept(flags: CInt, pToken: UnsafePointer<CChar>?, nToken: CInt, iStart: CInt, iEnd: CInt) -> CInt {
        let bytes = UnsafeRawBufferPointer(start: pToken, count: Int(nToken))
        let token = String(decoding: bytes, as: UTF8.self)
        do {
            try tokenizer.accept(token: token, flags: FTS5TokenFlags(rawValue: flags), for: tokenization) {
                outputToken, outputFlags in
                var utf8 = Array(outputToken.utf8)
                let code = utf8.withUnsafeMutableBytes { buffer in
                    tokenCallback(
                        context, outputFlags.rawValue, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                        CInt(buffer.count), iStart, iEnd)
                }
                if code != SQLITE_OK { throw FTS5TokenCallbackError(code: code) }
            }
            return SQLITE_OK
        } catch let error as FTS5TokenCallbackError {
            return error.code
        } catch let error as DatabaseError {
            return error.extendedResultCode.rawValue
        } catch {
            return SQLITE_ERROR
        }
    }
}

extension FTS5WrapperTokenizer {
    /// Tokenizes with the wrapped tokenizer, and outputs the tokens
    /// accepted by ``accept(token:flags:for:tokenCallback:)``.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        var state = FTS5WrapperTokenization(
            tokenizer: self, tokenization: tokenization, context: context, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &state) { statePointer in
            wrappedTokenizer.tokenize(
                context: statePointer, tokenization: tokenization, pText: pText, nText: nText
            ) { context, flags, pToken, nToken, iStart, iEnd in
                guard let state = context?.assumingMemoryBound(to: FTS5WrapperTokenization.self) else {
                    return SQLITE_ERROR
                }
                return state.pointee.accept(flags: flags, pToken: pToken, nToken: nToken, iStart: iStart, iEnd: iEnd)
            }
        }
    }
}
