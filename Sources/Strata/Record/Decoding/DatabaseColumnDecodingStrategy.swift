/// How a decodable record maps the columns of a row to its coding keys.
///
/// ```swift
/// struct Player: Decodable, FetchableRecord {
///     // Decodes `playerName` from the `player_name` column.
///     static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
///     var playerName: String
/// }
/// ```
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// Columns are named like coding keys (the default).
    case useDefaultKeys

    /// Columns are named in snake case: the `player_name` column feeds the
    /// `playerName` coding key.
    case convertFromSnakeCase

    /// A function turns a column name into a coding key.
    case custom(@Sendable (String) -> any CodingKey)

    /// The coding key string of a column name.
    func keyString(forColumn column: String) -> String {
        switch self {
        case .useDefaultKeys:
            return column
        case .convertFromSnakeCase:
            return Self.camelCased(column)
        case .custom(let transform):
            return transform(column).stringValue
        }
    }

    /// `player_name` → `playerName`; leading and trailing underscores stay.
    static func camelCased(_ name: String) -> String {
        guard let first = name.firstIndex(where: { $0 != "_" }) else { return name }
        let last = name.lastIndex(where: { $0 != "_" })!
        let core = name[first...last]
        let words = core.split(separator: "_")
        guard words.count > 1 else { return name }
        let joined = ([words[0].lowercased()] + words.dropFirst().map(\.capitalized)).joined()
        return String(name[..<first]) + joined + String(name[name.index(after: last)...])
    }
}
