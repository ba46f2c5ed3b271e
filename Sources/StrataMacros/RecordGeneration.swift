#if Macros
    import SwiftDiagnostics
    import SwiftSyntax

    extension RecordModel {
        /// The source of the members to write, each a declaration.
        func generatedMembers() -> [String] {
            var members: [String] = []
            if !declaresColumns {
                members.append(columnsEnum())
            }
            if !declaresTableName {
                members.append(
                    """
                        /// The name of the table: \(Self.defaultTableName(typeName).literal).
                        \(accessPrefix)static var databaseTableName: String { \(Self.defaultTableName(typeName).literal) }
                    """)
            }
            if !declaresInitRow && isFetchable {
                members.append(initRow())
            }
            if !declaresEncodeTo && isEncodable {
                members.append(contentsOf: encodeTo())
            }
            if let check = conformanceCheck() {
                members.append(check)
            }
            if !declaresDidInsert, isMutablePersistable, let idType = insertedIDType {
                let value = idType == "Int64" ? "inserted.rowID" : "\(idType)(inserted.rowID)"
                members.append(
                    """
                        /// Sets `id` to the row id of the inserted row.
                        \(accessPrefix)mutating func didInsert(_ inserted: InsertionSuccess) {
                            self.id = \(value)
                        }
                    """)
            }
            return members
        }

        /// A function that the compiler type-checks and nobody calls: it
        /// warns when the struct adopts `FetchableRecord`, or a protocol
        /// that writes columns, in an extension that the macro does not see,
        /// for which the macro wrote no `init(row:)` or `encode(to:)`. An
        /// extension macro sees the struct's declaration only; the compiler
        /// knows every conformance, and picks the deprecated overload of the
        /// check for a conforming type.
        private func conformanceCheck() -> String? {
            var checks: [String] = []
            if !isFetchable && !declaresInitRow {
                checks.append("        _databaseRecordInitRowCheck(Self.self)")
            }
            if !isEncodable && !declaresEncodeTo {
                checks.append("        _databaseRecordEncodeCheck(Self.self)")
            }
            if checks.isEmpty { return nil }
            let lines = [
                "    /// Warns about a record protocol that the struct adopts where",
                "    /// `@DatabaseRecord` does not see it.",
                "    private static func _databaseRecordCheckConformances() {",
            ]
            return (lines + checks + ["    }"]).joined(separator: "\n")
        }

        private func columnsEnum() -> String {
            var lines = [
                "    /// The columns of the table, one per stored property.",
                "    \(accessPrefix)enum Columns {",
            ]
            for column in columns {
                lines.append(
                    "        \(accessPrefix)static let \(column.identifier) = Column(\(column.column.literal))")
            }
            lines.append("    }")
            return lines.joined(separator: "\n")
        }

        private func initRow() -> String {
            var lines = [
                "    /// Decodes the record from the columns of the row, as its `Decodable`",
                "    /// implementation would.",
                "    \(accessPrefix)init(row: Row) throws {",
            ]
            if !columns.isEmpty {
                let names = columns.map(\.column.literal).joined(separator: ", ")
                lines.append("        let _columns = row._databaseRecordColumns(Self.self) { [\(names)] }")
            }
            for (position, column) in columns.enumerated() {
                let method = column.isOptional ? "_decodeDatabaseRecordColumnIfPresent" : "_decodeDatabaseRecordColumn"
                lines.append(
                    "        self.\(column.identifier) = try row.\(method)("
                        + "_columns, \(position), \(column.column.literal), Self.self)")
            }
            lines.append("    }")
            return lines.joined(separator: "\n")
        }

        /// `encode(to:)`; for a persistable record, also the members that
        /// bind the same columns straight to the INSERT statement, and the
        /// function both call.
        private func encodeTo() -> [String] {
            func calls(to writer: String) -> [String] {
                var calls: [String] = []
                if !columns.isEmpty {
                    calls.append("        let _encoding = _DatabaseRecordEncoding(Self.self)")
                }
                for column in columns {
                    let method = column.isOptional ? "encodeIfPresent" : "encode"
                    calls.append(
                        "        try _encoding.\(method)(self.\(column.identifier), \(column.column.literal), "
                            + "to: &\(writer))")
                }
                return calls
            }
            let encode = [
                "    /// Encodes the columns of the record, in declaration order, as its",
                "    /// `Encodable` implementation would.",
                "    \(accessPrefix)func encode(to container: inout PersistenceContainer) throws {",
            ]
            guard isPersistable else {
                return [(encode + calls(to: "container") + ["    }"]).joined(separator: "\n")]
            }
            return [
                (encode + ["        try _encodeDatabaseRecordColumns(to: &container)", "    }"]).joined(
                    separator: "\n"),
                """
                    /// The number of columns that an INSERT binds (not for direct use).
                    \(accessPrefix)static var _databaseRecordColumnCount: Int { \(columns.count) }
                """,
                """
                    /// Binds the columns of the record to the INSERT statement, as
                    /// `encode(to:)` writes them (not for direct use).
                    \(accessPrefix)func _bindDatabaseRecordColumns(to binder: inout _DatabaseRecordBinder) throws {
                        try _encodeDatabaseRecordColumns(to: &binder)
                    }
                """,
                ([
                    "    /// Writes the columns of the record, in declaration order.",
                    "    private func _encodeDatabaseRecordColumns(to writer: inout some _DatabaseRecordColumnWriter) throws {",
                ] + calls(to: "writer") + ["    }"]).joined(separator: "\n"),
            ]
        }

        /// The type name with a lowercased first word, as `TableRecord`'s
        /// default: `PostalAddress` → `postalAddress`, `HTTPRequest` →
        /// `httpRequest`, `TOEFL` → `toefl`.
        static func defaultTableName(_ typeName: String) -> String {
            let characters = Array(typeName.trimmingBackticks())
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
                    let head = String(characters[..<(uppercaseCount - 1)]).lowercased()
                    return head + String(characters[(uppercaseCount - 1)...])
                }
                return String(characters[..<uppercaseCount]).lowercased() + String(characters[uppercaseCount...])
            }
        }
    }

    extension String {
        /// The text as a Swift string literal.
        var literal: String {
            var escaped = ""
            for character in unicodeScalars {
                switch character {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return "\"\(escaped)\""
        }
    }

    /// The diagnostics of the record macros.
    enum RecordDiagnostic: DiagnosticMessage {
        case notAStruct(kind: String)
        case markerOnNonProperty(String)
        case columnNameNotLiteral
        case transientWithoutDefault(name: String)
        case letWithDefault(name: String)
        case letID
        case missingType(name: String)
        case unstorableType(name: String, reason: String)

        var message: String {
            switch self {
            case .notAStruct(let kind):
                return "@DatabaseRecord applies to a struct, not to \(kind)"
            case .markerOnNonProperty(let name):
                return "@\(name) applies to a stored property of a @DatabaseRecord struct"
            case .columnNameNotLiteral:
                return "@DatabaseColumn needs the column name as a string literal"
            case .transientWithoutDefault(let name):
                return "@DatabaseTransient property '\(name)' needs a default value: it is not read from the database"
            case .letWithDefault(let name):
                return "'let' property '\(name)' has a value already: it can not be read from the database"
            case .letID:
                return "'id' must be a 'var': didInsert(_:) sets it to the row id of the inserted row"
            case .missingType(let name):
                return "property '\(name)' needs a type annotation: @DatabaseRecord reads the type from the declaration"
            case .unstorableType(let name, let reason):
                return
                    "property '\(name)' can not be stored: \(reason) is neither a database value nor Codable"
            }
        }

        var diagnosticID: MessageID {
            let id: String
            switch self {
            case .notAStruct: id = "notAStruct"
            case .markerOnNonProperty: id = "markerOnNonProperty"
            case .columnNameNotLiteral: id = "columnNameNotLiteral"
            case .transientWithoutDefault: id = "transientWithoutDefault"
            case .letWithDefault: id = "letWithDefault"
            case .letID: id = "letID"
            case .missingType: id = "missingType"
            case .unstorableType: id = "unstorableType"
            }
            return MessageID(domain: "StrataMacros", id: id)
        }

        var severity: DiagnosticSeverity { .error }
    }

    /// The fix-its of the record macros.
    enum RecordFixIt: FixItMessage {
        case makeStruct
        case makeVar
        case addDefaultValue
        case markTransient

        var message: String {
            switch self {
            case .makeStruct: return "Make it a struct"
            case .makeVar: return "Replace 'let' with 'var'"
            case .addDefaultValue: return "Add a default value"
            case .markTransient: return "Mark the property @DatabaseTransient"
            }
        }

        var fixItID: MessageID {
            MessageID(domain: "StrataMacros", id: "\(self)")
        }
    }
#endif
