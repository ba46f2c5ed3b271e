/// A tokenizer of the FTS5 engine: `.unicode61()`, `.ascii()`,
/// `.porter()`, or a custom tokenizer.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.tokenizer = .porter(wrapping: .unicode61(diacritics: .keep))
///     t.column("title")
/// }
/// ```
public struct FTS5TokenizerDescriptor: Sendable {
    /// The tokenizer name followed by its arguments, such as
    /// `["unicode61", "remove_diacritics", "0"]`.
    public let components: [String]

    /// Creates a descriptor from its components: the tokenizer name followed
    /// by its arguments.
    public init(components: [String]) {
        precondition(!components.isEmpty, "FTS5TokenizerDescriptor requires at least one component")
        self.components = components
    }

    /// The tokenizer name.
    var name: String { components[0] }

    /// The tokenizer arguments.
    var arguments: [String] { Array(components.dropFirst()) }

    /// The "ascii" tokenizer: ASCII case folding.
    public static func ascii(
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS5TokenizerDescriptor {
        var components = ["ascii"]
        if !separators.isEmpty {
            components += ["separators", FTSSupport.sortedString(separators)]
        }
        if !tokenCharacters.isEmpty {
            components += ["tokenchars", FTSSupport.sortedString(tokenCharacters)]
        }
        return FTS5TokenizerDescriptor(components: components)
    }

    /// The "ascii" tokenizer with default options (the spelling of earlier
    /// versions: `t.tokenizer = .ascii`).
    public static var ascii: FTS5TokenizerDescriptor { ascii() }

    /// The "porter" tokenizer: English stemming, wrapping another tokenizer
    /// (unicode61 by default).
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
    }

    /// The "porter" tokenizer wrapping another tokenizer (the spelling of
    /// earlier versions: `.porter(.ascii)`).
    public static func porter(_ base: FTS5TokenizerDescriptor) -> FTS5TokenizerDescriptor {
        porter(wrapping: base)
    }

    /// The "unicode61" tokenizer (the default): Unicode case folding,
    /// diacritics removed unless told otherwise, token categories, custom
    /// separators and token characters.
    public static func unicode61(
        diacritics: FTS5.Diacritics = .removeLegacy,
        categories: String = "",
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS5TokenizerDescriptor {
        var components = ["unicode61"]
        switch diacritics {
        case .removeLegacy: break
        case .keep: components += ["remove_diacritics", "0"]
        case .remove: components += ["remove_diacritics", "2"]
        }
        if !categories.isEmpty {
            components += ["categories", categories]
        }
        if !separators.isEmpty {
            components += ["separators", FTSSupport.sortedString(separators)]
        }
        if !tokenCharacters.isEmpty {
            components += ["tokenchars", FTSSupport.sortedString(tokenCharacters)]
        }
        return FTS5TokenizerDescriptor(components: components)
    }

    /// The "unicode61" tokenizer, with diacritics kept when `removeDiacritics`
    /// is false (the spelling of earlier versions).
    public static func unicode61(
        removeDiacritics: Bool,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS5TokenizerDescriptor {
        unicode61(
            diacritics: removeDiacritics ? .removeLegacy : .keep,
            separators: separators,
            tokenCharacters: tokenCharacters)
    }

    /// The value of the `tokenize=` option, before SQL quoting: components
    /// separated by spaces, quoted when they are not barewords.
    var moduleArgument: String {
        components.map { component in
            FTSSupport.isBareword(component) ? component : FTSSupport.stringLiteral(component)
        }.joined(separator: " ")
    }
}
