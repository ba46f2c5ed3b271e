import Foundation
import Strata
import StrataTestSupport
import Testing

// A record that encodes a wrapped model through a single-value container,
// when the model is itself an `EncodableRecord`.

/// A model whose `Encodable` form (`value`) differs from its record form
/// (`column1`, `column2`).
private struct NestedModel: Encodable, EncodableRecord {
    var value: String

    func encode(to container: inout PersistenceContainer) throws {
        container["column1"] = "\(value)1"
        container["column2"] = "\(value)2"
    }
}

/// Encodes its model, then a column of its own.
private struct WrappingRecord: Encodable, PersistableRecord {
    static let databaseTableName = "t1"
    var model: NestedModel
    var otherValue: String

    private enum CodingKeys: String, CodingKey { case otherValue }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(model)
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(otherValue, forKey: .otherValue)
    }
}

struct EncodableNestedRecordTests {
    @Test("B15: a nested EncodableRecord in a single-value container is encoded with its record form")
    func nestedRecordUsesItsRecordEncoding() throws {
        let record = WrappingRecord(model: NestedModel(value: "v"), otherValue: "o")
        #expect(
            try record.databaseDictionary
                == ["column1": "v1".databaseValue, "column2": "v2".databaseValue, "otherValue": "o".databaseValue])
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE t1 (column1 TEXT, column2 TEXT, otherValue TEXT)")
            try record.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT column1, column2, otherValue FROM t1"))
            #expect(row == ["column1": "v1", "column2": "v2", "otherValue": "o"])
        }
    }
}
