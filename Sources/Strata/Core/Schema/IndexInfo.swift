/// An index, as returned by ``Database/indexes(on:in:)``.
public struct IndexInfo: Sendable {
    /// How an index was created (`PRAGMA index_list`'s origin column).
    public struct Origin: RawRepresentable, Hashable, Sendable {
        /// "c", "u" or "pk".
        public var rawValue: String

        /// Creates an origin from its raw value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// An index created with `CREATE INDEX`.
        public static let createIndex = Origin(rawValue: "c")

        /// An index created by a UNIQUE constraint.
        public static let uniqueConstraint = Origin(rawValue: "u")

        /// An index created by a PRIMARY KEY constraint.
        public static let primaryKeyConstraint = Origin(rawValue: "pk")
    }

    /// The name of the index.
    public let name: String

    /// The indexed columns, in index order.
    public let columns: [String]

    /// Whether the index is unique.
    public let isUnique: Bool

    /// How the index was created.
    public let origin: Origin

    init(name: String, columns: [String], isUnique: Bool, origin: Origin) {
        self.name = name
        self.columns = columns
        self.isUnique = isUnique
        self.origin = origin
    }
}
