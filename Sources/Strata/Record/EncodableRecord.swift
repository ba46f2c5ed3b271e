import Foundation

/// A type that can encode itself into the columns of a database row.
///
/// `Encodable` types get ``encode(to:)`` for free. Other types write their
/// columns into the container:
///
/// ```swift
/// struct Player: EncodableRecord {
///     var id: Int64?
///     var name: String
///     func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["name"] = name
///     }
/// }
/// ```
public protocol EncodableRecord: SendableMetatype {
    /// Writes the values stored in the database, by column.
    func encode(to container: inout PersistenceContainer) throws

    /// The user info given to the encoder of `Encodable` records.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON encoder of the nested values (arrays, dictionaries,
    /// structs...) of a column, for `Encodable` records. Keys should be
    /// sorted, so that the JSON text is stable.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How `Encodable` records store the dates of a column.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How `Encodable` records store the UUIDs of a column.
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy

    /// How `Encodable` records store the data of a column.
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How `Encodable` records turn coding keys into column names.
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }
}

extension EncodableRecord {
    /// No user info.
    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    /// A JSON encoder with sorted keys, base64 data, dates in milliseconds
    /// since 1970, that throws on non-conforming floats, and the record's
    /// ``databaseEncodingUserInfo``.
    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONCoding.makeEncoder()
        encoder.userInfo = JSONCoding.userInfo(databaseEncodingUserInfo)
        return encoder
    }

    /// `.deferredToDate`: text `YYYY-MM-DD HH:MM:SS.SSS` in UTC.
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .deferredToDate
    }

    /// `.deferredToUUID`: a 16-byte blob.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .deferredToUUID
    }

    /// `.deferredToData`: a blob.
    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        .deferredToData
    }

    /// `.useDefaultKeys`: coding keys are column names.
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }
}

extension EncodableRecord {
    /// The encoded values, by column.
    ///
    /// ```swift
    /// let player = Player(id: 1, name: "Arthur")
    /// try player.databaseDictionary // ["id": 1, "name": "Arthur"]
    /// ```
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try PersistenceContainer(self)
            var dictionary: [String: DatabaseValue] = [:]
            dictionary.reserveCapacity(container.count)
            for (column, value) in container {
                dictionary[column] = value
            }
            return dictionary
        }
    }

    /// Whether both records encode the same database values. False when
    /// one of them fails to encode.
    public func databaseEquals(_ record: Self) -> Bool {
        guard let lhs = try? PersistenceContainer(self), let rhs = try? PersistenceContainer(record) else {
            return false
        }
        return databaseChanges(lhs, from: rhs).isEmpty
    }

    /// The columns whose values differ from those of `record`, with the
    /// values of `record` (the old values).
    ///
    /// ```swift
    /// let oldPlayer = Player(id: 1, name: "Arthur", score: 100)
    /// let newPlayer = Player(id: 1, name: "Arthur", score: 1000)
    /// try newPlayer.databaseChanges(from: oldPlayer) // ["score": 100]
    /// ```
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        try databaseChanges(PersistenceContainer(self), from: PersistenceContainer(record))
    }

    /// Modifies the record, and returns the columns whose values changed,
    /// with their old values. Does not access the database.
    ///
    /// ```swift
    /// let changes = try player.databaseChanges { $0.score = 1000 }
    /// // ["score": 100]
    /// ```
    public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue] {
        let old = try PersistenceContainer(self)
        try modify(&self)
        return try databaseChanges(PersistenceContainer(self), from: old)
    }

    /// The changed columns of `new`, with the values of `old` (NULL for
    /// columns missing from `old`).
    func databaseChanges(_ new: PersistenceContainer, from old: PersistenceContainer) -> [String: DatabaseValue] {
        var changes: [String: DatabaseValue] = [:]
        for (index, column) in new.columns.enumerated() {
            let newValue = new.values[index]
            let oldValue = old.databaseValue(forColumn: column) ?? .null
            if newValue != oldValue {
                changes[column] = oldValue
            }
        }
        return changes
    }
}
