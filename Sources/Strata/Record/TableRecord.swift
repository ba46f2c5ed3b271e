/// A type that is stored in a database table, and can build requests for it.
///
/// ```swift
/// struct Player: TableRecord, FetchableRecord, Decodable {
///     enum Columns {
///         static let name = Column("name")
///         static let score = Column("score")
///     }
/// }
///
/// // SELECT * FROM "player" WHERE "score" > 1000
/// let request = Player.filter { $0.score > 1000 }
/// ```
public protocol TableRecord: SendableMetatype {
    /// The columns of the record, exposed to request closures (`filter { $0.score > 1000 }`).
    associatedtype Columns = Never

    /// The value given to request closures; by default the `Columns` type.
    associatedtype DatabaseComponents = Columns.Type

    /// The name of the table. The default is the type name with a lowercased
    /// first word: `PostalAddress` → `postalAddress`, `HTTPRequest` → `httpRequest`.
    static var databaseTableName: String { get }

    /// The columns selected by default: `[.allColumns]` (`SELECT *`).
    static var databaseSelection: [any SQLSelectable] { get }

    /// The value given to request closures.
    static var databaseComponents: DatabaseComponents { get }
}

extension TableRecord {
    /// The type name with a lowercased first word: `PostalAddress` →
    /// `postalAddress`, `HTTPRequest` → `httpRequest`, `TOEFL` → `toefl`.
    public static var databaseTableName: String {
        defaultDatabaseTableName(String(describing: Self.self))
    }

    /// All columns: `[.allColumns]`.
    public static var databaseSelection: [any SQLSelectable] { [AllColumns()] }
}

extension TableRecord where DatabaseComponents == Columns.Type {
    /// The `Columns` type.
    public static var databaseComponents: Columns.Type { Columns.self }
}

/// The default table name of a type: its name with a lowercased first word.
func defaultDatabaseTableName(_ typeName: String) -> String {
    var name = Substring(typeName)
    if let genericStart = name.firstIndex(of: "<") {
        name = name[..<genericStart]
    }
    if let dot = name.lastIndex(of: ".") {
        name = name[name.index(after: dot)...]
    }
    let characters = Array(name)
    var uppercaseCount = 0
    while uppercaseCount < characters.count, characters[uppercaseCount].isUppercase {
        uppercaseCount += 1
    }
    switch uppercaseCount {
    case 0:
        return String(characters)
    case 1:
        return characters[0].lowercased() + String(characters[1...])
    default:
        if uppercaseCount < characters.count, characters[uppercaseCount].isLowercase {
            // HTTPRequest: the last uppercase letter starts the next word.
            let head = String(characters[..<(uppercaseCount - 1)]).lowercased()
            return head + String(characters[(uppercaseCount - 1)...])
        }
        return String(characters[..<uppercaseCount]).lowercased() + String(characters[uppercaseCount...])
    }
}
