// One suite, one file: the expansion of @DatabaseRecord for each generated
// member and each diagnostic, side by side, so that a change to the macro
// shows all it changes in one place.
#if Macros
    import SwiftSyntaxMacrosGenericTestSupport
    import Testing

    // One file for every expansion and diagnostic of the macros: each test
    // is a source beside the code the macro writes for it, and reads best
    // next to the others.

    @Suite("The expansion of @DatabaseRecord")
    struct DatabaseRecordExpansionTests {
        @Test("The issue's player gets every member: columns, table name, init(row:), encode(to:), didInsert")
        func player() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                struct Player: Identifiable, Sendable, FetchableRecord, MutablePersistableRecord {
                    var id: Int64?
                    var name: String
                    @DatabaseColumn("score_value") var score: Int
                    var team: Team?
                    var tags: [String]
                    var lastSeen: Date?
                    @DatabaseTransient var isSelected = false
                }
                """,
                expandedSource: """
                    struct Player: Identifiable, Sendable, FetchableRecord, MutablePersistableRecord {
                        var id: Int64?
                        var name: String
                        var score: Int
                        var team: Team?
                        var tags: [String]
                        var lastSeen: Date?
                        var isSelected = false
                    }

                    extension Player {
                        /// The columns of the table, one per stored property.
                        enum Columns {
                            static let id = Column("id")
                            static let name = Column("name")
                            static let score = Column("score_value")
                            static let team = Column("team")
                            static let tags = Column("tags")
                            static let lastSeen = Column("lastSeen")
                        }

                        /// The name of the table: "player".
                        static var databaseTableName: String {
                            "player"
                        }

                        /// Decodes the record from the columns of the row, as its `Decodable`
                        /// implementation would.
                        init(row: Row) throws {
                            let _columns = row._databaseRecordColumns(Self.self) {
                                ["id", "name", "score_value", "team", "tags", "lastSeen"]
                            }
                            self.id = try row._decodeDatabaseRecordColumnIfPresent(_columns, 0, "id", Self.self)
                            self.name = try row._decodeDatabaseRecordColumn(_columns, 1, "name", Self.self)
                            self.score = try row._decodeDatabaseRecordColumn(_columns, 2, "score_value", Self.self)
                            self.team = try row._decodeDatabaseRecordColumnIfPresent(_columns, 3, "team", Self.self)
                            self.tags = try row._decodeDatabaseRecordColumn(_columns, 4, "tags", Self.self)
                            self.lastSeen = try row._decodeDatabaseRecordColumnIfPresent(_columns, 5, "lastSeen", Self.self)
                        }

                        /// Encodes the columns of the record, in declaration order, as its
                        /// `Encodable` implementation would.
                        func encode(to container: inout PersistenceContainer) throws {
                            try _encodeDatabaseRecordColumns(to: &container)
                        }

                        /// The number of columns that an INSERT binds (not for direct use).
                        static var _databaseRecordColumnCount: Int {
                            6
                        }

                        /// Binds the columns of the record to the INSERT statement, as
                        /// `encode(to:)` writes them (not for direct use).
                        func _bindDatabaseRecordColumns(to binder: inout _DatabaseRecordBinder) throws {
                            try _encodeDatabaseRecordColumns(to: &binder)
                        }

                        /// Writes the columns of the record, in declaration order.
                        private func _encodeDatabaseRecordColumns(to writer: inout some _DatabaseRecordColumnWriter) throws {
                            let _encoding = _DatabaseRecordEncoding(Self.self)
                            try _encoding.encodeIfPresent(self.id, "id", to: &writer)
                            try _encoding.encode(self.name, "name", to: &writer)
                            try _encoding.encode(self.score, "score_value", to: &writer)
                            try _encoding.encodeIfPresent(self.team, "team", to: &writer)
                            try _encoding.encode(self.tags, "tags", to: &writer)
                            try _encoding.encodeIfPresent(self.lastSeen, "lastSeen", to: &writer)
                        }

                        /// Sets `id` to the row id of the inserted row.
                        mutating func didInsert(_ inserted: InsertionSuccess) {
                            self.id = inserted.rowID
                        }
                    }
                    """)
        }

        @Test("Members that the struct declares are left alone")
        func declaredMembers() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                public struct Book {
                    public static let databaseTableName = "books"
                    public enum Columns {
                        static let id = Column("id")
                    }
                    public var id: Int?
                    var title: String
                    public init(row: Row) throws { id = row["id"]; title = row["title"] }
                    public func encode(to container: inout PersistenceContainer) throws { container["id"] = id }
                    public mutating func didInsert(_ inserted: InsertionSuccess) { id = Int(inserted.rowID) }
                }
                """,
                expandedSource: """
                    public struct Book {
                        public static let databaseTableName = "books"
                        public enum Columns {
                            static let id = Column("id")
                        }
                        public var id: Int?
                        var title: String
                        public init(row: Row) throws { id = row["id"]; title = row["title"] }
                        public func encode(to container: inout PersistenceContainer) throws { container["id"] = id }
                        public mutating func didInsert(_ inserted: InsertionSuccess) { id = Int(inserted.rowID) }
                    }
                    """)
        }

        @Test("A public struct gets public members; an Int id is converted from the row id")
        func publicStruct() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                public struct HTTPRequest: Codable, FetchableRecord, MutablePersistableRecord {
                    public var id: Int?
                    public var `default`: Bool
                    public func encode(to encoder: any Encoder) throws {}
                }
                """,
                expandedSource: """
                    public struct HTTPRequest: Codable, FetchableRecord, MutablePersistableRecord {
                        public var id: Int?
                        public var `default`: Bool
                        public func encode(to encoder: any Encoder) throws {}
                    }

                    extension HTTPRequest {
                        /// The columns of the table, one per stored property.
                        public enum Columns {
                            public static let id = Column("id")
                            public static let `default` = Column("default")
                        }

                        /// The name of the table: "httpRequest".
                        public static var databaseTableName: String {
                            "httpRequest"
                        }

                        /// Decodes the record from the columns of the row, as its `Decodable`
                        /// implementation would.
                        public init(row: Row) throws {
                            let _columns = row._databaseRecordColumns(Self.self) {
                                ["id", "default"]
                            }
                            self.id = try row._decodeDatabaseRecordColumnIfPresent(_columns, 0, "id", Self.self)
                            self.`default` = try row._decodeDatabaseRecordColumn(_columns, 1, "default", Self.self)
                        }

                        /// Encodes the columns of the record, in declaration order, as its
                        /// `Encodable` implementation would.
                        public func encode(to container: inout PersistenceContainer) throws {
                            try _encodeDatabaseRecordColumns(to: &container)
                        }

                        /// The number of columns that an INSERT binds (not for direct use).
                        public static var _databaseRecordColumnCount: Int {
                            2
                        }

                        /// Binds the columns of the record to the INSERT statement, as
                        /// `encode(to:)` writes them (not for direct use).
                        public func _bindDatabaseRecordColumns(to binder: inout _DatabaseRecordBinder) throws {
                            try _encodeDatabaseRecordColumns(to: &binder)
                        }

                        /// Writes the columns of the record, in declaration order.
                        private func _encodeDatabaseRecordColumns(to writer: inout some _DatabaseRecordColumnWriter) throws {
                            let _encoding = _DatabaseRecordEncoding(Self.self)
                            try _encoding.encodeIfPresent(self.id, "id", to: &writer)
                            try _encoding.encode(self.`default`, "default", to: &writer)
                        }

                        /// Sets `id` to the row id of the inserted row.
                        public mutating func didInsert(_ inserted: InsertionSuccess) {
                            self.id = Int(inserted.rowID)
                        }
                    }
                    """)
        }

        @Test(
            "Computed, static, lazy and observed properties: only stored instance properties are columns; literals give the type"
        )
        func propertyKinds() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                struct Item: FetchableRecord, PersistableRecord {
                    static var count = 0
                    var id: Int64?
                    var a, b: Optional<Double>
                    var name: String { didSet { } }
                    var upper: String { name.uppercased() }
                    lazy var cache = 0
                    let kind: String
                    var rank = -1, ratio = 0.5
                }
                """,
                expandedSource: """
                    struct Item: FetchableRecord, PersistableRecord {
                        static var count = 0
                        var id: Int64?
                        var a, b: Optional<Double>
                        var name: String { didSet { } }
                        var upper: String { name.uppercased() }
                        lazy var cache = 0
                        let kind: String
                        var rank = -1, ratio = 0.5
                    }

                    extension Item {
                        /// The columns of the table, one per stored property.
                        enum Columns {
                            static let id = Column("id")
                            static let a = Column("a")
                            static let b = Column("b")
                            static let name = Column("name")
                            static let kind = Column("kind")
                            static let rank = Column("rank")
                            static let ratio = Column("ratio")
                        }

                        /// The name of the table: "item".
                        static var databaseTableName: String {
                            "item"
                        }

                        /// Decodes the record from the columns of the row, as its `Decodable`
                        /// implementation would.
                        init(row: Row) throws {
                            let _columns = row._databaseRecordColumns(Self.self) {
                                ["id", "a", "b", "name", "kind", "rank", "ratio"]
                            }
                            self.id = try row._decodeDatabaseRecordColumnIfPresent(_columns, 0, "id", Self.self)
                            self.a = try row._decodeDatabaseRecordColumnIfPresent(_columns, 1, "a", Self.self)
                            self.b = try row._decodeDatabaseRecordColumnIfPresent(_columns, 2, "b", Self.self)
                            self.name = try row._decodeDatabaseRecordColumn(_columns, 3, "name", Self.self)
                            self.kind = try row._decodeDatabaseRecordColumn(_columns, 4, "kind", Self.self)
                            self.rank = try row._decodeDatabaseRecordColumn(_columns, 5, "rank", Self.self)
                            self.ratio = try row._decodeDatabaseRecordColumn(_columns, 6, "ratio", Self.self)
                        }

                        /// Encodes the columns of the record, in declaration order, as its
                        /// `Encodable` implementation would.
                        func encode(to container: inout PersistenceContainer) throws {
                            try _encodeDatabaseRecordColumns(to: &container)
                        }

                        /// The number of columns that an INSERT binds (not for direct use).
                        static var _databaseRecordColumnCount: Int {
                            7
                        }

                        /// Binds the columns of the record to the INSERT statement, as
                        /// `encode(to:)` writes them (not for direct use).
                        func _bindDatabaseRecordColumns(to binder: inout _DatabaseRecordBinder) throws {
                            try _encodeDatabaseRecordColumns(to: &binder)
                        }

                        /// Writes the columns of the record, in declaration order.
                        private func _encodeDatabaseRecordColumns(to writer: inout some _DatabaseRecordColumnWriter) throws {
                            let _encoding = _DatabaseRecordEncoding(Self.self)
                            try _encoding.encodeIfPresent(self.id, "id", to: &writer)
                            try _encoding.encodeIfPresent(self.a, "a", to: &writer)
                            try _encoding.encodeIfPresent(self.b, "b", to: &writer)
                            try _encoding.encode(self.name, "name", to: &writer)
                            try _encoding.encode(self.kind, "kind", to: &writer)
                            try _encoding.encode(self.rank, "rank", to: &writer)
                            try _encoding.encode(self.ratio, "ratio", to: &writer)
                        }
                    }
                    """)
        }
    }

    @Suite("The diagnostics of @DatabaseRecord")
    struct DatabaseRecordDiagnosticTests {
        @Test("On a class: an error, and a fix-it that makes it a struct")
        func onClass() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                final class Player {
                    var name: String = ""
                }
                """,
                expandedSource: """
                    final class Player {
                        var name: String = ""
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "@DatabaseRecord applies to a struct, not to a class", line: 1, column: 1,
                        fixIts: [FixItSpec(message: "Make it a struct")])
                ],
                fixedSource: """
                    @DatabaseRecord
                    final struct Player {
                        var name: String = ""
                    }
                    """)
        }

        @Test("On an enum: an error")
        func onEnum() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                enum Kind {
                    case a
                }
                """,
                expandedSource: """
                    enum Kind {
                        case a
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(message: "@DatabaseRecord applies to a struct, not to an enum", line: 1, column: 1)
                ])
        }

        @Test("@DatabaseTransient without a default value: an error, and a fix-it that adds one")
        func transientWithoutDefault() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                struct Player {
                    var name: String
                    @DatabaseTransient var isSelected: Bool
                }
                """,
                expandedSource: """
                    struct Player {
                        var name: String
                        var isSelected: Bool
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "@DatabaseTransient property 'isSelected' needs a default value: it is not read from the database",
                        line: 4, column: 28, fixIts: [FixItSpec(message: "Add a default value")])
                ],
                fixedSource: """
                    @DatabaseRecord
                    struct Player {
                        var name: String
                        @DatabaseTransient var isSelected: Bool = <#value#>
                    }
                    """)
        }

        @Test("A let id on a record that needs didInsert: an error, and a fix-it that makes it a var")
        func letID() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                struct Player: MutablePersistableRecord {
                    let id: Int64?
                    var name: String
                }
                """,
                expandedSource: """
                    struct Player: MutablePersistableRecord {
                        let id: Int64?
                        var name: String
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "'id' must be a 'var': didInsert(_:) sets it to the row id of the inserted row",
                        line: 3, column: 5, fixIts: [FixItSpec(message: "Replace 'let' with 'var'")])
                ],
                fixedSource: """
                    @DatabaseRecord
                    struct Player: MutablePersistableRecord {
                        var id: Int64?
                        var name: String
                    }
                    """)
        }

        @Test("A let property with a value: an error, and a fix-it that makes it a var")
        func letWithDefault() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                struct Player {
                    let kind = "human"
                }
                """,
                expandedSource: """
                    struct Player {
                        let kind = "human"
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "'let' property 'kind' has a value already: it can not be read from the database",
                        line: 3, column: 9, fixIts: [FixItSpec(message: "Replace 'let' with 'var'")])
                ],
                fixedSource: """
                    @DatabaseRecord
                    struct Player {
                        var kind = "human"
                    }
                    """)
        }

        @Test("A function property: an error, and a fix-it that marks it @DatabaseTransient")
        func unstorableType() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                struct Player {
                    var onChange: () -> Void = {}
                }
                """,
                expandedSource: """
                    struct Player {
                        var onChange: () -> Void = {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "property 'onChange' can not be stored: a function is neither a database value nor Codable",
                        line: 3, column: 9, fixIts: [FixItSpec(message: "Mark the property @DatabaseTransient")])
                ],
                fixedSource: """
                    @DatabaseRecord
                    struct Player {
                        @DatabaseTransient var onChange: () -> Void = {}
                    }
                    """)
        }

        @Test("A property without a type annotation, whose value is not a literal: an error")
        func missingType() {
            assertRecordExpansion(
                """
                @DatabaseRecord
                struct Player {
                    var seen = Date()
                }
                """,
                expandedSource: """
                    struct Player {
                        var seen = Date()
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "property 'seen' needs a type annotation: @DatabaseRecord reads the type from the declaration",
                        line: 3, column: 9)
                ])
        }

        @Test("@DatabaseColumn needs a string literal, and both markers apply to properties only")
        func markers() {
            assertRecordExpansion(
                """
                struct Player {
                    @DatabaseColumn(name) var score: Int
                    @DatabaseTransient func f() {}
                }
                """,
                expandedSource: """
                    struct Player {
                        var score: Int
                        func f() {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "@DatabaseColumn needs the column name as a string literal", line: 2, column: 5),
                    DiagnosticSpec(
                        message: "@DatabaseTransient applies to a stored property of a @DatabaseRecord struct", line: 3,
                        column: 5),
                ])
        }

        @Test("A struct without a record protocol gets a check that warns if it adopts one elsewhere")
        func conformanceCheck() {
            // The compiler picks the deprecated overload of a check when
            // the struct adopts the protocol in another extension.
            assertRecordExpansion(
                """
                @DatabaseRecord
                struct Player: Identifiable {
                    var id: Int64?
                }
                """,
                expandedSource: """
                    struct Player: Identifiable {
                        var id: Int64?
                    }

                    extension Player {
                        /// The columns of the table, one per stored property.
                        enum Columns {
                            static let id = Column("id")
                        }

                        /// The name of the table: "player".
                        static var databaseTableName: String {
                            "player"
                        }

                        /// Warns about a record protocol that the struct adopts where
                        /// `@DatabaseRecord` does not see it.
                        private static func _databaseRecordCheckConformances() {
                            _databaseRecordInitRowCheck(Self.self)
                            _databaseRecordEncodeCheck(Self.self)
                        }
                    }
                    """)
        }
    }
#endif
