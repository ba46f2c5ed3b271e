/// How the coding keys of `Encodable` records become column names.
///
/// ```swift
/// struct Player: Encodable, PersistableRecord {
///     static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
///     var playerName: String // stored in the "player_name" column
/// }
/// ```
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// The coding key is the column name.
    case useDefaultKeys

    /// camelCase keys become snake_case columns: `playerName` → `player_name`,
    /// `myURL` → `my_url`.
    case convertToSnakeCase

    /// A closure returns the column of each coding key.
    case custom(@Sendable (any CodingKey) -> String)

    /// The column that stores the value of a coding key.
    func column(forKey key: some CodingKey) -> String {
        if case .custom(let columnName) = self {
            return columnName(key)
        }
        let keyName = key.stringValue
        if case .convertToSnakeCase = self {
            return Self.snakeCase(keyName)
        }
        return keyName
    }

    /// `myURLProperty` → `my_url_property`: words start at an uppercase letter
    /// that follows a lowercase one, or that precedes a lowercase one after
    /// other uppercase letters. Leading and trailing underscores are kept.
    static func snakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        let characters = Array(key)
        guard let first = characters.firstIndex(where: { $0 != "_" }) else { return key }
        let last = characters.lastIndex(where: { $0 != "_" })!
        var words: [String] = []
        var word = ""
        var index = first
        while index <= last {
            let character = characters[index]
            if character.isUppercase, !word.isEmpty {
                let previous = characters[index - 1]
                let next: Character? = index + 1 <= last ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && (next?.isLowercase ?? false))
                {
                    words.append(word)
                    word = ""
                }
            }
            word.append(character)
            index += 1
        }
        if !word.isEmpty { words.append(word) }
        let body = words.map { $0.lowercased() }.joined(separator: "_")
        return String(characters[..<first]) + body + String(characters[(last + 1)...])
    }
}
