import Foundation
import Strata
import StrataTestSupport
import Testing

private struct Player: Decodable, FetchableRecord {
    var id: Int64
    var name: String
    var score: Int
}

private struct Achievement: Codable {
    var name: String
}

private struct JSONPlayer: Decodable, FetchableRecord {
    var name: String
    var achievements: [Achievement]
}

private struct OptionalJSONPlayer: Decodable, FetchableRecord {
    var achievements: [Achievement]?
}

private struct Team: Decodable, FetchableRecord {
    enum Color: String, Codable, DatabaseValueConvertible {
        case red, blue
    }
    var color: Color
}

private enum Mood: String, Decodable {
    case happy, sad
}

private struct Diary: Decodable, FetchableRecord {
    var mood: Mood
}

private struct Small: Decodable, FetchableRecord {
    var value: Int8
}

private struct Event: Decodable, FetchableRecord {
    var date: Date
}

private struct Identified: Decodable, FetchableRecord {
    var uuid: UUID
}

private struct Nested: Decodable {
    var value: Int
}

private struct Container: Decodable, FetchableRecord {
    var nested: Nested
}

/// Bad data never crashes a `Decodable` record: it throws a
/// `RowDecodingError` that names the column, the row and the SQL.
struct DecodableBadInputTests {
    private func error(_ body: (Database) throws -> Void) throws -> RowDecodingError {
        let dbQueue = try DatabaseQueue()
        do {
            try dbQueue.read { db in try body(db) }
        } catch let error as RowDecodingError {
            return error
        }
        Issue.record("no RowDecodingError")
        throw CancellationError()
    }

    @Test func nullInNonOptionalProperty() throws {
        let error = try error { db in
            _ = try Player.fetchOne(db, sql: "SELECT 1 AS id, NULL AS name, 10 AS score")
        }
        let message = error.description
        #expect(message.contains("could not decode String from database value NULL"))
        #expect(message.contains(#"column: "name""#))
        #expect(message.contains("column index: 1"))
        #expect(message.contains("row: [id:1 name:NULL score:10]"))
        #expect(message.contains("sql: `SELECT 1 AS id, NULL AS name, 10 AS score`"))
    }

    @Test func missingColumn() throws {
        let error = try error { db in
            _ = try Player.fetchAll(db, sql: "SELECT 1 AS id, 10 AS score")
        }
        #expect(error.description.contains(#"column not found: "name""#))
        #expect(error.description.contains("row: [id:1 score:10]"))
        #expect(error.description.contains("sql: `SELECT 1 AS id, 10 AS score`"))
    }

    @Test func valueOutOfRange() throws {
        let error = try error { db in
            _ = try Small.fetchOne(db, sql: "SELECT 1000 AS value")
        }
        #expect(error.description.contains("could not decode Int8 from database value 1000"))
        #expect(error.description.contains(#"column: "value""#))
    }

    @Test func invalidEnumRawValue() throws {
        let error = try error { db in
            _ = try Team.fetchOne(db, sql: "SELECT 'green' AS color")
        }
        #expect(error.description.contains(#"from database value "green""#))
        #expect(error.description.contains(#"column: "color""#))
    }

    @Test func invalidEnumWithoutDatabaseValueConformance() throws {
        let error = try error { db in
            _ = try Diary.fetchOne(db, sql: "SELECT 'angry' AS mood")
        }
        #expect(error.description.contains(#"could not decode Mood from database value "angry""#))
        #expect(error.description.contains(#"column: "mood""#))
    }

    @Test func invalidDate() throws {
        let error = try error { db in
            _ = try Event.fetchOne(db, sql: "SELECT 'yesterday' AS date")
        }
        #expect(error.description.contains(#"could not decode Date from database value "yesterday""#))
    }

    @Test func invalidUUID() throws {
        let error = try error { db in
            _ = try Identified.fetchOne(db, sql: "SELECT 'not a uuid' AS uuid")
        }
        #expect(error.description.contains(#"could not decode UUID from database value "not a uuid""#))
    }

    @Test func invalidJSON() throws {
        let error = try error { db in
            _ = try JSONPlayer.fetchOne(db, sql: "SELECT 'Arthur' AS name, 'not json' AS achievements")
        }
        #expect(error.description.contains(#"could not decode Array<Achievement> from database value "not json""#))
        #expect(error.description.contains(#"column: "achievements""#))
        #expect(error.description.contains("sql: `SELECT 'Arthur' AS name, 'not json' AS achievements`"))
    }

    @Test func jsonOfTheWrongShape() throws {
        let error = try error { db in
            _ = try JSONPlayer.fetchOne(db, sql: #"SELECT 'Arthur' AS name, '{"name":"x"}' AS achievements"#)
        }
        #expect(error.description.contains("could not decode Array<Achievement>"))
        let optional = try self.error { db in
            _ = try OptionalJSONPlayer.fetchOne(db, sql: "SELECT '[{}]' AS achievements")
        }
        #expect(optional.description.contains(#"column: "achievements""#))
    }

    @Test func jsonInANumberColumn() throws {
        let error = try error { db in
            _ = try Container.fetchOne(db, sql: "SELECT 12 AS nested")
        }
        #expect(error.description.contains("could not decode Nested from database value 12"))
    }

    @Test func nullJSON() throws {
        let error = try error { db in
            _ = try JSONPlayer.fetchOne(db, sql: "SELECT 'Arthur' AS name, NULL AS achievements")
        }
        #expect(error.description.contains("could not decode Array<Achievement> from database value NULL"))
    }

    @Test func missingNestedValue() throws {
        let error = try error { db in
            _ = try Container.fetchOne(db, sql: "SELECT 1 AS other")
        }
        #expect(error.description.contains(#"key not found: "nested""#))
        #expect(error.description.contains("row: [other:1]"))
    }

    @Test func cursorStopsAtTheBadRow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let cursor = try Player.fetchCursor(
                db, sql: "SELECT 1 AS id, 'Arthur' AS name, 1 AS score UNION ALL SELECT 2, NULL, 2")
            #expect(try cursor.next()?.name == "Arthur")
            #expect(throws: RowDecodingError.self) { try cursor.next() }
        }
    }

    @Test func decodingACopiedRow() throws {
        let row: Row = ["id": 1, "name": nil, "score": 2]
        #expect {
            try Player(row: row)
        } throws: { error in
            let description = "\(error)"
            return error is RowDecodingError && description.contains(#"column: "name""#)
                && !description.contains("sql:")
        }
    }

    @Test func publicStatementArgumentsInMessages() throws {
        var config = Configuration()
        config.publicStatementArguments = true
        let dbQueue = try DatabaseQueue(configuration: config)
        #expect {
            try dbQueue.read { db in
                _ = try Player.fetchOne(db, sql: "SELECT ? AS id, NULL AS name, 1 AS score", arguments: [42])
            }
        } throws: { error in
            "\(error)".contains("arguments: [42]")
        }
    }
}
