#if Macros
    import Foundation
    import Strata
    import StrataTestSupport
    import Testing

    // The equivalence of a @DatabaseRecord type with the Codable type of
    // the same properties (issue 30): both read the same random rows (valid
    // values most of the time, and values of another type, NULLs and
    // missing columns sometimes) and must give the same values or the same
    // errors; the records they read are then inserted and updated, and must
    // run the same SQL with the same arguments and leave the same rows.

    /// How the random values of a column are made.
    enum RandomColumn {
        case integer(ClosedRange<Int64>)
        case real
        case text
        case boolean
        /// A date in one of the formats SQLite and Strata store dates in.
        case date
        /// Seconds since 1970, whole or not.
        case timestamp
        /// ISO 8601 text, as `.iso8601` strategies read and write it.
        case isoDate
        case uuid
        case blob
        case decimal
        /// One of these texts (the raw values of an enum).
        case oneOf([String])
        /// JSON text of an array of strings.
        case jsonArray
        /// JSON text of a `Nested` value.
        case jsonObject

        func value(using generator: inout SeededGenerator) -> DatabaseValue {
            switch self {
            case .integer(let range):
                return Int64.random(in: range, using: &generator).databaseValue
            case .real:
                return (Double(Int.random(in: -10_000...10_000, using: &generator)) / 8).databaseValue
            case .text:
                return randomWord(using: &generator).databaseValue
            case .boolean:
                return Bool.random(using: &generator).databaseValue
            case .date:
                let seconds = Double(Int.random(in: 0...2_000_000_000, using: &generator))
                let date = Date(timeIntervalSince1970: seconds)
                let formats = [
                    "yyyy-MM-dd", "yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm:ss.SSS",
                    "yyyy-MM-dd'T'HH:mm:ss.SSS",
                ]
                switch Int.random(in: 0...6, using: &generator) {
                case 0...4:
                    let formatter = DateFormatter()
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.timeZone = TimeZone(identifier: "UTC")
                    formatter.dateFormat = formats.randomElement(using: &generator)!
                    return formatter.string(from: date).databaseValue
                case 5:
                    return Int64(seconds).databaseValue
                default:
                    return (seconds + 0.5).databaseValue
                }
            case .timestamp:
                let seconds = Double(Int.random(in: 0...2_000_000_000, using: &generator))
                return Bool.random(using: &generator) ? Int64(seconds).databaseValue : (seconds + 0.25).databaseValue
            case .isoDate:
                let seconds = Double(Int.random(in: 0...2_000_000_000, using: &generator))
                let formatter = ISO8601DateFormatter()
                return formatter.string(from: Date(timeIntervalSince1970: seconds)).databaseValue
            case .uuid:
                var bytes: [UInt8] = []
                for _ in 0..<16 { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
                let uuid = UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    ))
                return Bool.random(using: &generator) ? uuid.uuidString.databaseValue : uuid.databaseValue
            case .blob:
                let count = Int.random(in: 0...6, using: &generator)
                return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }).databaseValue
            case .decimal:
                return
                    "\(Int.random(in: -99_999...99_999, using: &generator)).\(Int.random(in: 0...99, using: &generator))"
                    .databaseValue
            case .oneOf(let texts):
                return texts.randomElement(using: &generator)!.databaseValue
            case .jsonArray:
                let words = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    "\"\(randomWord(using: &generator))\""
                }
                return "[\(words.joined(separator: ","))]".databaseValue
            case .jsonObject:
                return
                    #"{"label":"\#(randomWord(using: &generator))","rank":\#(Int.random(in: 0...9, using: &generator))}"#
                    .databaseValue
            }
        }

        func randomWord(using generator: inout SeededGenerator) -> String {
            ["alpha", "beta", "Gamma", "délta", "", "x y", "42", "O'Brien"].randomElement(using: &generator)!
        }
    }

    /// A value of another type than the column expects: the errors must be
    /// the same too.
    func wrongValue(using generator: inout SeededGenerator) -> DatabaseValue {
        let values: [DatabaseValue] = [
            .null, "not a number".databaseValue, Data([0xFF, 0x00]).databaseValue, 3.25.databaseValue,
            Int64(7).databaseValue, "{".databaseValue,
        ]
        return values.randomElement(using: &generator)!
    }

    /// A column of a shape's table: its name, how its values are made, and
    /// whether it may hold NULL.
    struct ShapeColumn {
        var name: String
        var values: RandomColumn
        var isOptional = false
        /// An `INTEGER PRIMARY KEY`: no value of another type (SQLite
        /// refuses them).
        var isRowID = false
    }

    /// The values of a record, property by property, without its type name.
    func propertyDescription(_ value: Any) -> String {
        Mirror(reflecting: value).children.map { child in
            "\(child.label ?? "_"): \(String(reflecting: child.value))"
        }.joined(separator: ", ")
    }

    /// An error, without the names of the two record types.
    func errorDescription(_ error: any Error) -> String {
        String(describing: error)
            .replacingOccurrences(of: "MacroShape", with: "Shape")
            .replacingOccurrences(of: "CodableShape", with: "Shape")
    }

    /// What fetching every row gives: the records, or the error.
    func fetchOutcome<Record: FetchableRecord>(_ type: Record.Type, _ db: Database, sql: String) -> String {
        do {
            return try Record.fetchAll(db, sql: sql).map(propertyDescription).joined(separator: "\n")
        } catch {
            return "error: \(errorDescription(error))"
        }
    }

    /// Checks that `Macro` and `Codable` read, insert and update the same
    /// random rows of `table` (created by `schema`) in the same way, over
    /// `rounds` rounds of up to 8 rows each, from a fixed seed.
    func checkEquivalence<
        Macro: FetchableRecord & MutablePersistableRecord, Codable: FetchableRecord & MutablePersistableRecord
    >(
        _ macro: Macro.Type, _ codable: Codable.Type, schema: String, columns: [ShapeColumn], seed: UInt64,
        rounds: Int = 12, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var generator = SeededGenerator(seed: seed)
        let table = Macro.databaseTableName
        #expect(Codable.databaseTableName == table, sourceLocation: sourceLocation)
        // What the rounds met, so that the test fails if it compared nothing.
        var (readRecords, readErrors, writtenRecords) = (0, 0, 0)
        defer {
            #expect(readRecords > 0 && writtenRecords > 0, sourceLocation: sourceLocation)
            if ProcessInfo.processInfo.environment["STRATA_EQUIVALENCE_VERBOSE"] != nil {
                print(
                    "equivalence \(Macro.self): \(readRecords) records, \(readErrors) errors, \(writtenRecords) written"
                )
            }
        }
        let macroQueue = try inMemoryDatabase(schema)
        let codableQueue = try inMemoryDatabase(schema)
        for round in 0..<rounds {
            // The same random rows in both databases.
            var rows: [[DatabaseValue]] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                rows.append(
                    columns.map { column in
                        if column.isOptional && Int.random(in: 0..<4, using: &generator) == 0 {
                            return .null
                        }
                        return column.values.value(using: &generator)
                    })
            }
            // In a third of the rounds, one value of another type.
            let wrongColumns = columns.indices.filter { !columns[$0].isRowID }
            if Int.random(in: 0..<3, using: &generator) == 0, let column = wrongColumns.randomElement(using: &generator)
            {
                rows[Int.random(in: 0..<rows.count, using: &generator)][column] = wrongValue(using: &generator)
            }
            // All columns, in the table's order or shuffled; sometimes one is missing.
            var selected = columns.map(\.name)
            if Bool.random(using: &generator) { selected.shuffle(using: &generator) }
            if Int.random(in: 0..<6, using: &generator) == 0 {
                selected.remove(at: Int.random(in: 0..<selected.count, using: &generator))
            }
            let select = "SELECT \(selected.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \"\(table)\""
            let insert =
                "INSERT INTO \"\(table)\" (\(columns.map { "\"\($0.name)\"" }.joined(separator: ", "))) "
                + "VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            for queue in [macroQueue, codableQueue] {
                try queue.write { db in
                    try db.execute(sql: "DELETE FROM \"\(table)\"")
                    for row in rows {
                        try db.execute(sql: insert, arguments: StatementArguments(row))
                    }
                }
            }

            // Reads: the same values, or the same error.
            let macroOutcome = try macroQueue.read { db in fetchOutcome(Macro.self, db, sql: select) }
            let codableOutcome = try codableQueue.read { db in fetchOutcome(Codable.self, db, sql: select) }
            #expect(macroOutcome == codableOutcome, "round \(round): \(select)", sourceLocation: sourceLocation)
            if macroOutcome.hasPrefix("error: ") { readErrors += 1 } else { readRecords += rows.count }

            // Writes: the records read back with every column, inserted
            // again and updated, run the same SQL and leave the same rows.
            let selectAll = "SELECT * FROM \"\(table)\" ORDER BY rowid"
            guard let macroRecords = try? macroQueue.read({ db in try Macro.fetchAll(db, sql: selectAll) }),
                let codableRecords = try? codableQueue.read({ db in try Codable.fetchAll(db, sql: selectAll) })
            else { continue }
            func persist<Record: MutablePersistableRecord>(_ records: [Record], in queue: DatabaseQueue) throws
                -> [String]
            {
                try queue.write { db in
                    try db.execute(sql: "DELETE FROM \"\(table)\"")
                    var log: [String] = []
                    for var record in records {
                        do {
                            log += try recordSQL(db, .changes, expanded: true) {
                                try record.insert(db)
                                try record.update(db)
                            }
                        } catch {
                            log.append("error: \(errorDescription(error))")
                        }
                        log.append(propertyDescription(record))
                    }
                    let stored = try Row.fetchAll(db, sql: selectAll).map { $0.description }
                    return log + stored
                }
            }
            let macroWrites = try persist(macroRecords, in: macroQueue)
            let codableWrites = try persist(codableRecords, in: codableQueue)
            #expect(macroWrites == codableWrites, "round \(round)", sourceLocation: sourceLocation)
            writtenRecords += macroRecords.count
        }
    }
#endif
