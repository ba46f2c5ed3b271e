/// An index, as returned by ``Database/indexes(on:in:)``.
public struct IndexInfo: Sendable {
    /// The name of the index.
    public let name: String

    /// The indexed columns, in index order.
    public let columns: [String]

    /// Whether the index is unique.
    public let isUnique: Bool

    /// How the index was created.
    public let origin: Origin
}

extension IndexInfo {
    /// How an index was created (`PRAGMA index_list`'s origin column).
    public struct Origin: RawRepresentable, Hashable, Sendable {
        /// "c", "u" or "pk".
        public var rawValue: String

        /// Creates an origin from its raw value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }
}

extension IndexInfo.Origin {
    /// An index created with `CREATE INDEX` ("c").
    public static let createIndex = Self(rawValue: "c")

    /// An index created by a UNIQUE constraint ("u").
    public static let uniqueConstraint = Self(rawValue: "u")

    /// An index created by a PRIMARY KEY constraint ("pk").
    public static let primaryKeyConstraint = Self(rawValue: "pk")
}

/// An origin is stored as its raw value, the text of `PRAGMA index_list`'s
/// origin column: `Database.indexes(on:)` reads it back.
extension IndexInfo.Origin: DatabaseValueConvertible {}
