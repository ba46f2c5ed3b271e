import Foundation

/// A custom string comparison, usable in SQL as `COLLATE name`.
///
/// ```swift
/// let collation = DatabaseCollation("localized_standard") { $0.localizedStandardCompare($1) }
/// db.add(collation: collation)
/// try db.execute(sql: "CREATE TABLE file (name TEXT COLLATE localized_standard)")
/// ```
public final class DatabaseCollation: Identifiable, Sendable {
    /// Identifies a collation by its case-insensitive name.
    public struct ID: Hashable, Sendable {
        let name: String

        init(name: String) {
            self.name = name.lowercased()
        }

        /// Identifiers are equal when names are equal, ignoring case.
        public static func == (lhs: ID, rhs: ID) -> Bool { lhs.name == rhs.name }

        /// Hashes the lowercased name.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// The name of the collation, to use in raw SQL.
    public let name: String

    /// The identifier of the collation.
    public var id: ID { ID(name: name) }

    let function: @Sendable (String, String) -> ComparisonResult

    /// Creates a collation from a comparison function.
    public convenience init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.init(name: name, function: function)
    }

    private init(name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.function = function
    }

    // MARK: Built-in collations

    /// Compares strings with `<` and `==` (Unicode canonical equivalence).
    public static let unicodeCompare = DatabaseCollation("swiftCompare") { lhs, rhs in
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }

    /// `String.caseInsensitiveCompare`.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") {
        $0.caseInsensitiveCompare($1)
    }

    /// `String.localizedCaseInsensitiveCompare`.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("swiftLocalizedCaseInsensitiveCompare") {
        $0.localizedCaseInsensitiveCompare($1)
    }

    /// `String.localizedCompare`.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") {
        $0.localizedCompare($1)
    }

    /// `String.localizedStandardCompare`.
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") {
        $0.localizedStandardCompare($1)
    }

    /// Collations registered on every connection.
    static let builtIn: [DatabaseCollation] = [
        .unicodeCompare, .caseInsensitiveCompare, .localizedCaseInsensitiveCompare, .localizedCompare,
        .localizedStandardCompare,
    ]
}

extension Database {
    /// The name of a collation built in SQLite.
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        /// The name of the collation.
        public let rawValue: String

        /// Creates a collation name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The `BINARY` collation (memcmp).
        public static let binary = CollationName(rawValue: "BINARY")
        /// The `NOCASE` collation (ASCII case-insensitive).
        public static let nocase = CollationName(rawValue: "NOCASE")
        /// The `RTRIM` collation (trailing spaces ignored).
        public static let rtrim = CollationName(rawValue: "RTRIM")
    }

    /// Registers a collation on this connection. Wraps `sqlite3_create_collation_v2`.
    public func add(collation: DatabaseCollation) {
        collations[collation.id] = collation
        let box = Unmanaged.passRetained(CollationBox(collation)).toOpaque()
        let code = sqlite3_create_collation_v2(
            sqliteConnection, collation.name, SQLITE_UTF8, box,
            { box, lhsCount, lhs, rhsCount, rhs in
                let collation = Unmanaged<CollationBox>.fromOpaque(box!).takeUnretainedValue().collation
                let lhsString = String(
                    decoding: UnsafeRawBufferPointer(start: lhs, count: Int(lhsCount)), as: UTF8.self)
                let rhsString = String(
                    decoding: UnsafeRawBufferPointer(start: rhs, count: Int(rhsCount)), as: UTF8.self)
                return CInt(collation.function(lhsString, rhsString).rawValue)
            },
            { box in Unmanaged<CollationBox>.fromOpaque(box!).release() })
        if code != SQLITE_OK {
            fatalError("Could not add collation \(collation.name): \(DatabaseError.lastError(of: sqliteConnection))")
        }
    }

    /// Removes a collation from this connection.
    public func remove(collation: DatabaseCollation) {
        collations[collation.id] = nil
        sqlite3_create_collation_v2(sqliteConnection, collation.name, SQLITE_UTF8, nil, nil, nil)
    }
}

/// Retains a collation for SQLite.
private final class CollationBox {
    let collation: DatabaseCollation
    init(_ collation: DatabaseCollation) { self.collation = collation }
}

extension Database {
    /// Rebuilds the indexes that use a built-in collation (`REINDEX`).
    public func reindex(collation: Database.CollationName) throws {
        try execute(sql: "REINDEX \(collation.rawValue)")
    }

    /// Rebuilds the indexes that use a custom collation, after its ordering
    /// changed (`REINDEX name`, the name written as is, like a built-in one).
    public func reindex(collation: DatabaseCollation) throws {
        try execute(sql: "REINDEX \(collation.name)")
    }
}
