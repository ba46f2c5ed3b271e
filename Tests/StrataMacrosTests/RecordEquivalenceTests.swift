#if Macros
    import Foundation
    import Strata
    import StrataTestSupport
    import Testing

    // One file for the 21 shapes, each a @DatabaseRecord type beside the
    // Codable type of the same properties, and the test that runs them: the
    // pairs only make sense side by side.

    enum ShapeColor: String, Codable, Sendable, DatabaseValueConvertible {
        case red, green, blue
    }

    /// Codable, and not a database value: decoded from its single value.
    enum ShapeLevel: Int, Codable, Sendable {
        case low = 1, mid, high
    }

    struct ShapeNested: Codable, Hashable, Sendable {
        var label: String
        var rank: Int
    }

    // 1. Integers of several widths (overflows throw).
    @DatabaseRecord struct MacroShape01: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var a: Int
        var b: Int64
        var c: Int32
        var d: UInt8
    }
    struct CodableShape01: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var a: Int
        var b: Int64
        var c: Int32
        var d: UInt8
    }

    // 2. Optionals.
    @DatabaseRecord struct MacroShape02: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var a: Int?
        var b: String?
        var c: Double?
        var d: Bool?
    }
    struct CodableShape02: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var a: Int?
        var b: String?
        var c: Double?
        var d: Bool?
    }

    // 3. Text, booleans, floating point.
    @DatabaseRecord struct MacroShape03: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var name: String
        var flag: Bool
        var ratio: Double
        var small: Float
    }
    struct CodableShape03: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var name: String
        var flag: Bool
        var ratio: Double
        var small: Float
    }

    // 4. A RawRepresentable enum that is a database value.
    @DatabaseRecord struct MacroShape04: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var color: ShapeColor
        var other: ShapeColor?
    }
    struct CodableShape04: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var color: ShapeColor
        var other: ShapeColor?
    }

    // 5. A Codable enum that is not a database value.
    @DatabaseRecord struct MacroShape05: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var level: ShapeLevel
        var maybe: ShapeLevel?
    }
    struct CodableShape05: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var level: ShapeLevel
        var maybe: ShapeLevel?
    }

    // 6. Dates, with the default strategies, in every stored format.
    @DatabaseRecord struct MacroShape06: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var at: Date
        var maybe: Date?
    }
    struct CodableShape06: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var at: Date
        var maybe: Date?
    }

    // 7. Dates as seconds since 1970.
    @DatabaseRecord struct MacroShape07: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            .timeIntervalSince1970
        }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            .timeIntervalSince1970
        }
        var at: Date
        var maybe: Date?
    }
    struct CodableShape07: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            .timeIntervalSince1970
        }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            .timeIntervalSince1970
        }
        var at: Date
        var maybe: Date?
    }

    // 8. Dates as ISO 8601 text, and milliseconds for the second column.
    @DatabaseRecord struct MacroShape08: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            column == "at" ? .iso8601 : .millisecondsSince1970
        }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            column == "at" ? .iso8601 : .millisecondsSince1970
        }
        var at: Date
        var maybe: Date?
    }
    struct CodableShape08: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            column == "at" ? .iso8601 : .millisecondsSince1970
        }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            column == "at" ? .iso8601 : .millisecondsSince1970
        }
        var at: Date
        var maybe: Date?
    }

    // 9. UUIDs, as text or blobs.
    @DatabaseRecord struct MacroShape09: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var uuid: UUID
        var maybe: UUID?
    }
    struct CodableShape09: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var uuid: UUID
        var maybe: UUID?
    }

    // 10. UUIDs stored as uppercase text.
    @DatabaseRecord struct MacroShape10: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
            .uppercaseString
        }
        var uuid: UUID
        var maybe: UUID?
    }
    struct CodableShape10: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
            .uppercaseString
        }
        var uuid: UUID
        var maybe: UUID?
    }

    // 11. Data.
    @DatabaseRecord struct MacroShape11: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var payload: Data
        var maybe: Data?
    }
    struct CodableShape11: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var payload: Data
        var maybe: Data?
    }

    // 12. Decimal.
    @DatabaseRecord struct MacroShape12: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var amount: Decimal
        var maybe: Decimal?
    }
    struct CodableShape12: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var amount: Decimal
        var maybe: Decimal?
    }

    // 13. Nested Codable values, stored as JSON.
    @DatabaseRecord struct MacroShape13: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var tags: [String]
        var nested: ShapeNested
        var maybeTags: [String]?
        var maybeNested: ShapeNested?
    }
    struct CodableShape13: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var tags: [String]
        var nested: ShapeNested
        var maybeTags: [String]?
        var maybeNested: ShapeNested?
    }

    // 14. Renamed columns.
    @DatabaseRecord struct MacroShape14: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        @DatabaseColumn("score_value") var score: Int
        @DatabaseColumn("full name") var name: String?
    }
    struct CodableShape14: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var score: Int
        var name: String?
        enum CodingKeys: String, CodingKey {
            case score = "score_value"
            case name = "full name"
        }
    }

    // 15. Transient properties.
    @DatabaseRecord struct MacroShape15: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var name: String
        @DatabaseTransient var isSelected = false
        @DatabaseTransient var cache: [Int] = []
    }
    struct CodableShape15: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var name: String
        var isSelected = false
        var cache: [Int] = []
        enum CodingKeys: String, CodingKey {
            case name
        }
    }

    // 16. The default table name of the type (`macroShape16`/`codableShape16`
    // differ, so both name the same custom table).
    @DatabaseRecord struct MacroShape16: FetchableRecord, MutablePersistableRecord {
        static var databaseTableName: String { "custom items" }
        var label: String
        var rank: Int?
    }
    struct CodableShape16: Codable, FetchableRecord, MutablePersistableRecord {
        static var databaseTableName: String { "custom items" }
        var label: String
        var rank: Int?
    }

    // 17. A composite primary key.
    @DatabaseRecord struct MacroShape17: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var a: String
        var b: Int
        var value: Double?
    }
    struct CodableShape17: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var a: String
        var b: Int
        var value: Double?
    }

    // 18. An auto-incremented id, set by didInsert.
    @DatabaseRecord struct MacroShape18: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var id: Int64?
        var name: String
    }
    struct CodableShape18: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var id: Int64?
        var name: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    // 19. An Int id, and snake-case column strategies.
    @DatabaseRecord struct MacroShape19: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        var id: Int?
        var userName: String
        var scoreValue: Int?
    }
    struct CodableShape19: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        var id: Int?
        var userName: String
        var scoreValue: Int?
        mutating func didInsert(_ inserted: InsertionSuccess) { id = Int(inserted.rowID) }
    }

    // 20. Small and unsigned integers, optional or not.
    @DatabaseRecord struct MacroShape20: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var a: Int8
        var b: Int16?
        var c: UInt64
        var d: UInt32?
    }
    struct CodableShape20: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var a: Int8
        var b: Int16?
        var c: UInt64
        var d: UInt32?
    }

    // 21. Everything of the README's player at once.
    @DatabaseRecord struct MacroShape21: FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var id: Int64?
        var name: String
        @DatabaseColumn("score_value") var score: Int
        var team: ShapeColor?
        var tags: [String]
        var lastSeen: Date?
        @DatabaseTransient var isSelected = false
    }
    struct CodableShape21: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "shape"
        var id: Int64?
        var name: String
        var score: Int
        var team: ShapeColor?
        var tags: [String]
        var lastSeen: Date?
        var isSelected = false
        enum CodingKeys: String, CodingKey {
            case id, name, score = "score_value", team, tags, lastSeen
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    /// The schema of a shape's table: columns without affinity, so that the
    /// random values stay as they are made.
    func shapeSchema(_ columns: [ShapeColumn], table: String = "shape", primaryKey: String? = nil) -> String {
        var definitions = columns.map { column in
            column.name == "id" && primaryKey == nil ? "\"id\" INTEGER PRIMARY KEY" : "\"\(column.name)\""
        }
        if let primaryKey { definitions.append("PRIMARY KEY (\(primaryKey))") }
        return "CREATE TABLE \"\(table)\" (\(definitions.joined(separator: ", ")))"
    }

    @Suite("@DatabaseRecord and Codable records: the same values, SQL and errors")
    struct RecordEquivalenceTests {
        /// Each shape: its columns, and the check of its two types.
        static let shapes: [(name: String, check: @Sendable (UInt64) throws -> Void)] = [
            (
                "integers",
                {
                    try check(
                        MacroShape01.self, CodableShape01.self, $0,
                        [
                            ShapeColumn(name: "a", values: .integer(Int64.min...Int64.max)),
                            ShapeColumn(name: "b", values: .integer(-70_000...70_000)),
                            ShapeColumn(name: "c", values: .integer(-70_000...70_000)),
                            ShapeColumn(name: "d", values: .integer(0...255)),
                        ])
                }
            ),
            (
                "optionals",
                {
                    try check(
                        MacroShape02.self, CodableShape02.self, $0,
                        [
                            ShapeColumn(name: "a", values: .integer(-99...99), isOptional: true),
                            ShapeColumn(name: "b", values: .text, isOptional: true),
                            ShapeColumn(name: "c", values: .real, isOptional: true),
                            ShapeColumn(name: "d", values: .boolean, isOptional: true),
                        ])
                }
            ),
            (
                "text, booleans, floating point",
                {
                    try check(
                        MacroShape03.self, CodableShape03.self, $0,
                        [
                            ShapeColumn(name: "name", values: .text), ShapeColumn(name: "flag", values: .boolean),
                            ShapeColumn(name: "ratio", values: .real), ShapeColumn(name: "small", values: .real),
                        ])
                }
            ),
            (
                "database value enum",
                { try check(MacroShape04.self, CodableShape04.self, $0, colors(["color", "other"])) }
            ),
            (
                "Codable enum",
                {
                    try check(
                        MacroShape05.self, CodableShape05.self, $0,
                        [
                            ShapeColumn(name: "level", values: .integer(1...3)),
                            ShapeColumn(name: "maybe", values: .integer(1...3), isOptional: true),
                        ])
                }
            ),
            ("dates", { try check(MacroShape06.self, CodableShape06.self, $0, pair("at", "maybe", .date)) }),
            (
                "dates as seconds",
                { try check(MacroShape07.self, CodableShape07.self, $0, pair("at", "maybe", .timestamp)) }
            ),
            (
                "dates as ISO 8601 and milliseconds",
                {
                    try check(
                        MacroShape08.self, CodableShape08.self, $0,
                        [
                            ShapeColumn(name: "at", values: .isoDate),
                            ShapeColumn(name: "maybe", values: .integer(0...2_000_000_000_000), isOptional: true),
                        ])
                }
            ),
            ("UUIDs", { try check(MacroShape09.self, CodableShape09.self, $0, pair("uuid", "maybe", .uuid)) }),
            (
                "UUIDs as uppercase text",
                { try check(MacroShape10.self, CodableShape10.self, $0, pair("uuid", "maybe", .uuid)) }
            ),
            ("data", { try check(MacroShape11.self, CodableShape11.self, $0, pair("payload", "maybe", .blob)) }),
            ("decimals", { try check(MacroShape12.self, CodableShape12.self, $0, pair("amount", "maybe", .decimal)) }),
            (
                "nested Codable values as JSON",
                {
                    try check(
                        MacroShape13.self, CodableShape13.self, $0,
                        [
                            ShapeColumn(name: "tags", values: .jsonArray),
                            ShapeColumn(name: "nested", values: .jsonObject),
                            ShapeColumn(name: "maybeTags", values: .jsonArray, isOptional: true),
                            ShapeColumn(name: "maybeNested", values: .jsonObject, isOptional: true),
                        ])
                }
            ),
            (
                "renamed columns",
                {
                    try check(
                        MacroShape14.self, CodableShape14.self, $0,
                        [
                            ShapeColumn(name: "score_value", values: .integer(0...1000)),
                            ShapeColumn(name: "full name", values: .text, isOptional: true),
                        ])
                }
            ),
            (
                "transient properties",
                { try check(MacroShape15.self, CodableShape15.self, $0, [ShapeColumn(name: "name", values: .text)]) }
            ),
            (
                "a custom table name",
                {
                    let columns = [
                        ShapeColumn(name: "label", values: .text),
                        ShapeColumn(name: "rank", values: .integer(0...9), isOptional: true),
                    ]
                    try checkEquivalence(
                        MacroShape16.self, CodableShape16.self, schema: shapeSchema(columns, table: "custom items"),
                        columns: columns, seed: $0)
                }
            ),
            (
                "a composite primary key",
                {
                    let columns = [
                        ShapeColumn(name: "a", values: .oneOf(["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"])),
                        ShapeColumn(name: "b", values: .integer(0...1_000_000)),
                        ShapeColumn(name: "value", values: .real, isOptional: true),
                    ]
                    try checkEquivalence(
                        MacroShape17.self, CodableShape17.self, schema: shapeSchema(columns, primaryKey: "a, b"),
                        columns: columns, seed: $0)
                }
            ),
            (
                "an auto-incremented id",
                {
                    try check(
                        MacroShape18.self, CodableShape18.self, $0,
                        [
                            ShapeColumn(
                                name: "id", values: .integer(1...1_000_000_000), isOptional: true, isRowID: true),
                            ShapeColumn(name: "name", values: .text),
                        ])
                }
            ),
            (
                "an Int id and snake-case columns",
                {
                    try check(
                        MacroShape19.self, CodableShape19.self, $0,
                        [
                            ShapeColumn(
                                name: "id", values: .integer(1...1_000_000_000), isOptional: true, isRowID: true),
                            ShapeColumn(name: "user_name", values: .text),
                            ShapeColumn(name: "score_value", values: .integer(-5...5), isOptional: true),
                        ])
                }
            ),
            (
                "small and unsigned integers",
                {
                    try check(
                        MacroShape20.self, CodableShape20.self, $0,
                        [
                            ShapeColumn(name: "a", values: .integer(-128...127)),
                            ShapeColumn(name: "b", values: .integer(-32_768...32_767), isOptional: true),
                            ShapeColumn(name: "c", values: .integer(0...Int64.max)),
                            ShapeColumn(name: "d", values: .integer(0...4_294_967_295), isOptional: true),
                        ])
                }
            ),
            (
                "the README's player",
                {
                    try check(
                        MacroShape21.self, CodableShape21.self, $0,
                        [
                            ShapeColumn(
                                name: "id", values: .integer(1...1_000_000_000), isOptional: true, isRowID: true),
                            ShapeColumn(name: "name", values: .text),
                            ShapeColumn(name: "score_value", values: .integer(0...1000)),
                            ShapeColumn(
                                name: "team", values: .oneOf(["red", "green", "blue"]), isOptional: true),
                            ShapeColumn(name: "tags", values: .jsonArray),
                            ShapeColumn(name: "lastSeen", values: .date, isOptional: true),
                        ])
                }
            ),
        ]

        static func check<
            Macro: FetchableRecord & MutablePersistableRecord, Codable: FetchableRecord & MutablePersistableRecord
        >(_ macro: Macro.Type, _ codable: Codable.Type, _ seed: UInt64, _ columns: [ShapeColumn]) throws {
            try checkEquivalence(Macro.self, Codable.self, schema: shapeSchema(columns), columns: columns, seed: seed)
        }

        static func colors(_ names: [String]) -> [ShapeColumn] {
            names.enumerated().map { index, name in
                ShapeColumn(name: name, values: .oneOf(["red", "green", "blue"]), isOptional: index > 0)
            }
        }

        static func pair(_ first: String, _ second: String, _ values: RandomColumn) -> [ShapeColumn] {
            [ShapeColumn(name: first, values: values), ShapeColumn(name: second, values: values, isOptional: true)]
        }

        @Test("Each shape reads, inserts and updates random rows like its Codable twin", arguments: 0..<21)
        func shape(_ index: Int) throws {
            let shape = Self.shapes[index]
            // A fixed seed per shape: a failure replays.
            try shape.check(UInt64(1000 + index))
        }
    }
#endif
