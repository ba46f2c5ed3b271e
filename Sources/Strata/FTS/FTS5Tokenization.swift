import StrataSQLite

/// The reason why FTS5 tokenizes a text: a document being indexed, a
/// query, a prefix query, or an auxiliary function.
public struct FTS5Tokenization: OptionSet, Sendable {
    /// The `FTS5_TOKENIZE_*` flags.
    public let rawValue: CInt

    /// Creates a tokenization from `FTS5_TOKENIZE_*` flags.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }
}

extension FTS5Tokenization {
    /// A document being inserted, updated or deleted (`FTS5_TOKENIZE_DOCUMENT`).
    public static let document = Self(rawValue: FTS5_TOKENIZE_DOCUMENT)

    /// A MATCH query (`FTS5_TOKENIZE_QUERY`).
    public static let query = Self(rawValue: FTS5_TOKENIZE_QUERY)

    /// A prefix query, along with `.query` (`FTS5_TOKENIZE_PREFIX`).
    public static let prefix = Self(rawValue: FTS5_TOKENIZE_PREFIX)

    /// An auxiliary function, such as highlight() (`FTS5_TOKENIZE_AUX`).
    public static let aux = Self(rawValue: FTS5_TOKENIZE_AUX)
}

/// The flags of a token produced by an FTS5 tokenizer.
public struct FTS5TokenFlags: OptionSet, Sendable {
    /// The `FTS5_TOKEN_*` flags.
    public let rawValue: CInt

    /// Creates flags from `FTS5_TOKEN_*` flags.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }
}

extension FTS5TokenFlags {
    /// The token is a synonym of the previous one, at the same position
    /// (`FTS5_TOKEN_COLOCATED`).
    public static let colocated = Self(rawValue: FTS5_TOKEN_COLOCATED)
}

/// The C function an FTS5 tokenizer calls for each token: context, token
/// flags, token bytes and length, start and end byte offsets in the text.
/// It returns `SQLITE_OK`, or an error code that stops the tokenization.
public typealias FTS5TokenCallback =
    @convention(c) (
        _ context: UnsafeMutableRawPointer?,
        _ flags: CInt,
        _ pToken: UnsafePointer<CChar>?,
        _ nToken: CInt,
        _ iStart: CInt,
        _ iEnd: CInt
    ) -> CInt

/// The function a ``FTS5WrapperTokenizer`` calls for each token it outputs.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void
