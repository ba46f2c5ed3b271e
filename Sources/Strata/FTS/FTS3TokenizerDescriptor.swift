/// A tokenizer of the FTS3 and FTS4 engines: `.simple`, `.porter`,
/// `.unicode61()`.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.tokenizer = .unicode61(diacritics: .keep)
///     t.column("title")
/// }
/// ```
public struct FTS3TokenizerDescriptor: Sendable {
    /// The tokenizer name, such as "porter".
    let name: String
    /// The tokenizer arguments, such as "remove_diacritics=0".
    let arguments: [String]

    /// The "simple" tokenizer (the default): ASCII case folding.
    public static let simple = Self(name: "simple", arguments: [])

    /// The "porter" tokenizer: English stemming ("databases" matches "database").
    public static let porter = Self(name: "porter", arguments: [])

    /// The "unicode61" tokenizer: Unicode case folding, diacritics removed
    /// unless told otherwise, custom separators and token characters.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS3TokenizerDescriptor {
        // Options left at their default are not written at all.
        let diacriticsOption: String? =
            switch diacritics {
            case .removeLegacy: nil
            case .keep: "remove_diacritics=0"
            case .remove: "remove_diacritics=2"
            }
        let options = [
            diacriticsOption,
            separators.isEmpty ? nil : "separators=" + FTSSupport.sortedString(separators),
            tokenCharacters.isEmpty ? nil : "tokenchars=" + FTSSupport.sortedString(tokenCharacters),
        ]
        return Self(name: "unicode61", arguments: options.compactMap { $0 })
    }

    /// The "unicode61" tokenizer, with diacritics kept when `removeDiacritics`
    /// is false (the spelling of earlier versions).
    public static func unicode61(
        removeDiacritics: Bool,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS3TokenizerDescriptor {
        unicode61(
            diacritics: removeDiacritics ? .removeLegacy : .keep,
            separators: separators,
            tokenCharacters: tokenCharacters)
    }

    /// The value of the `tokenize=` option: `porter`, or
    /// `unicode61 "remove_diacritics=0"`.
    var moduleArgument: String {
        ([name] + arguments.map(\.quotedDatabaseIdentifier)).joined(separator: " ")
    }
}
