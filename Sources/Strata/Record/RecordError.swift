/// An error about a record that the database does not hold.
///
/// ```swift
/// do {
///     let player = try Player.find(db, id: 42)
/// } catch RecordError.recordNotFound(let table, let key) {
///     print("No row in \(table) for \(key)")
/// }
/// ```
public enum RecordError: Error, CustomStringConvertible, Sendable {
    /// No row of the table has the given key: thrown by `find`, `update`,
    /// and the other methods that need an existing row.
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])

    /// A message that names the table and the key.
    public var description: String {
        switch self {
        case let .recordNotFound(databaseTableName: table, key: key):
            // Formatted as a row: `[id:1]`, `[a:1 b:"x"]`.
            let keyDescription = key.sorted { $0.key < $1.key }
                .map { "\($0.key):\($0.value)" }
                .joined(separator: " ")
            return "Key not found in table \(table): [\(keyDescription)]"
        }
    }
}

/// The former name of ``RecordError``.
public typealias PersistenceError = RecordError

extension TableRecord {
    /// The error for a missing row with the given key, where the key maps
    /// column names to values.
    public static func recordNotFound(key: [String: (any DatabaseValueConvertible)?]) -> RecordError {
        var databaseKey: [String: DatabaseValue] = [:]
        for (column, value) in key {
            databaseKey[column] = value?.databaseValue ?? .null
        }
        return .recordNotFound(databaseTableName: databaseTableName, key: databaseKey)
    }

    /// The error for a missing row with the given primary key value. If the
    /// primary key can not be read from the schema, that error is returned.
    public static func recordNotFound(_ db: Database, key: some DatabaseValueConvertible) -> any Error {
        do {
            let columns = try db.primaryKey(databaseTableName).columns
            guard columns.count == 1 else {
                return DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Table \(databaseTableName) has a composite primary key \(columns): "
                        + "a single value can not identify a row")
            }
            return RecordError.recordNotFound(
                databaseTableName: databaseTableName,
                key: [columns[0]: key.databaseValue])
        } catch {
            return error
        }
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// The error for a missing row with the given id.
    public static func recordNotFound(_ db: Database, id: ID) -> any Error {
        recordNotFound(db, key: id)
    }
}
