/// The patterns that ``FTS3Pattern`` and ``FTS5Pattern`` build from the
/// words of a string, as raw `MATCH` text.
enum FTSTokenPattern {
    /// `sqlite OR database`
    case anyToken
    /// `sqlite database`
    case allTokens
    /// `sqlite* database*`
    case allPrefixes
    /// `"sqlite database"`
    case phrase
    /// `^"sqlite database"` (FTS5 only): documents that start with the phrase
    case prefixPhrase

    /// The raw pattern for the words of the string, or nil when the string
    /// has no word. Words come from the FTS3 "simple" tokenizer, so they
    /// never contain query syntax.
    func rawPattern(for string: String) -> String? {
        guard let words = try? FTS3.tokenize(string), !words.isEmpty else { return nil }
        switch self {
        case .anyToken:
            return words.joined(separator: " OR ")
        case .allTokens:
            return words.joined(separator: " ")
        case .allPrefixes:
            return words.lazy.map { "\($0)*" }.joined(separator: " ")
        case .phrase:
            return "\"\(words.joined(separator: " "))\""
        case .prefixPhrase:
            return "^\"\(words.joined(separator: " "))\""
        }
    }
}
