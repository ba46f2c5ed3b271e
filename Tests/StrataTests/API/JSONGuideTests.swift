import Strata
import Testing

/// Runs the samples of `Sources/Strata/Strata.docc/JSON.md`: each ```swift
/// block of the article is a piece of this file (`ArticleSampleTests` checks
/// it).
struct JSONGuideTests {
    struct Dimensions: Codable {
        var width: Double
        var height: Double
    }

    struct Product: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var tags: [String]  // stored as a JSON array
        var dimensions: Dimensions  // stored as a JSON object
        var details: String?  // JSON of any shape, kept as text

        enum Columns {
            static let name = Column(CodingKeys.name)
            static let tags = JSONColumn(CodingKeys.tags)
            static let dimensions = JSONColumn(CodingKeys.dimensions)
            static let details = JSONColumn(CodingKeys.details)
        }
    }

    /// The `product` table of the article, with its chair and lamp.
    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "product") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("tags", .jsonText).notNull()
                t.column("dimensions", .jsonText).notNull().check { Database.jsonIsValid($0) }
                t.column("details", .jsonText)
            }
            let chair = Product(
                id: 1, name: "Chair", tags: ["furniture", "wood"],
                dimensions: Dimensions(width: 45, height: 90), details: #"{"warranty": 2}"#)
            let lamp = Product(
                id: 2, name: "Lamp", tags: ["lighting"],
                dimensions: Dimensions(width: 20, height: 35.5), details: nil)
            try chair.insert(db)
            try lamp.insert(db)

            let row = try Row.fetchOne(db, sql: "SELECT tags, dimensions FROM product WHERE id = 1")!
            print(row["tags"] as String)  // ["furniture","wood"]
            print(row["dimensions"] as String)  // {"height":90,"width":45}
        }
        return dbQueue
    }

    @Test func codableProperties() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, sql: "SELECT tags, dimensions FROM product WHERE id = 1")!
            #expect(row["tags"] as String == #"["furniture","wood"]"#)
            #expect(row["dimensions"] as String == #"{"height":90,"width":45}"#)
            let products = try Product.fetchAll(db)
            #expect(products.map(\.tags) == [["furniture", "wood"], ["lighting"]])
            #expect(products.map(\.dimensions.height) == [90, 35.5])
            #expect(products.map(\.details) == [#"{"warranty": 2}"#, nil])
        }
    }

    @Test func invalidJSONIsRefused() throws {
        let dbQueue = try Self.makeDatabase()
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO product VALUES (3, 'Desk', '[]', 'not json', NULL)")
            }
        }
    }

    @Test func readingInsideJSON() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let dimensions = Product.Columns.dimensions
            let wide = try Product.filter(dimensions["width"] > 30).fetchAll(db)  // [Chair]
            let widths = try Product.select(dimensions["width"], as: Double.self).fetchAll(db)  // [45, 20]
            let tags = Product.Columns.tags
            let firstTags = try Product.select(tags[0], as: String.self).fetchAll(db)  // ["furniture", "lighting"]
            #expect(wide.map(\.name) == ["Chair"])
            #expect(widths == [45, 20])
            #expect(firstTags == ["furniture", "lighting"])
            let sql = try Product.filter(Product.Columns.dimensions["width"] > 30).makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT * FROM "product" WHERE ("dimensions" ->> ?) > ?"#)
            #expect(try Product.filter(Column("dimensions").asJSON["$.width"] < 30).fetchCount(db) == 1)

            let quoted = try Product.select(Product.Columns.tags.jsonRepresentation(atPath: "$[0]"), as: String.self)
                .fetchAll(db)  // ["\"furniture\"", "\"lighting\""]
            let height = Product.Columns.dimensions.jsonExtract(atPath: "$.height")
            let heights = try Product.select(height, as: Double.self).fetchAll(db)  // [90, 35.5]
            let tagCounts = try Product.select(Database.jsonArrayLength(Product.Columns.tags), as: Int.self)
                .fetchAll(db)  // [2, 1]
            let detailTypes = try Product.select(Database.jsonType(Product.Columns.details), as: String?.self)
                .fetchAll(db)  // ["object", nil]
            #expect(quoted == [#""furniture""#, #""lighting""#])
            #expect(heights == [90, 35.5])
            #expect(tagCounts == [2, 1])
            #expect(detailTypes == ["object", nil])

            let tagged = Product.filter(
                sql: "EXISTS (SELECT 1 FROM json_each(product.tags) WHERE value = ?)",
                arguments: ["wood"])
            let wooden = try tagged.fetchAll(db)  // [Chair]
            #expect(wooden.map(\.name) == ["Chair"])
        }
    }

    @Test func jsonIndex() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { db throws in
            try db.create(index: "product_on_width", on: "product", expressions: [Product.Columns.dimensions["width"]])
            // CREATE INDEX "product_on_width" ON "product"("dimensions" ->> 'width')
            let indexed = Product.filter(sql: "dimensions ->> 'width' > ?", arguments: [30])
            let wideProducts = try indexed.fetchAll(db)  // [Chair], found with the index
            #expect(wideProducts.map(\.name) == ["Chair"])
            let indexSQL = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'product_on_width'")
            #expect(indexSQL == #"CREATE INDEX "product_on_width" ON "product"("dimensions" ->> 'width')"#)

            // The plan of the SQL condition uses the index; the one of the query
            // interface, whose path is an argument, scans the table.
            func plan(_ request: QueryInterfaceRequest<Product>) throws -> String {
                let statement = try request.makePreparedRequest(db).statement
                let rows = try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
                return rows.map { $0["detail"] as String }.joined(separator: "\n")
            }
            #expect(try plan(indexed).contains("USING INDEX product_on_width"))
            #expect(try plan(Product.filter(Product.Columns.dimensions["width"] > 30)).contains("SCAN"))
        }
    }

    @Test func buildingJSON() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db throws in
            let fields: KeyValuePairs<String, any SQLExpressible> = [
                "name": Product.Columns.name,
                "tags": Product.Columns.tags,
                "width": Product.Columns.dimensions["width"],
            ]
            let summaries = try Product.select(Database.jsonObject(fields), as: String.self).fetchAll(db)
            // {"name":"Chair","tags":["furniture","wood"],"width":45}, then the lamp
            let names = try Product.select(Database.jsonGroupArray(Product.Columns.name), as: String.self).fetchOne(db)
            // ["Chair","Lamp"]
            #expect(
                summaries == [
                    #"{"name":"Chair","tags":["furniture","wood"],"width":45}"#,
                    #"{"name":"Lamp","tags":["lighting"],"width":20}"#,
                ])
            #expect(names == #"["Chair","Lamp"]"#)
            let asText = try Product.select(Database.jsonArray([Column("tags")]), as: String.self).fetchOne(db)
            #expect(asText == #"["[\"furniture\",\"wood\"]"]"#)
            let asJSON = try Product.select(Database.jsonArray([Column("tags").asJSON]), as: String.self).fetchOne(db)
            #expect(asJSON == #"[["furniture","wood"]]"#)
        }
    }

    @Test func changingJSON() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { db throws in
            let narrower = Database.jsonSet(Product.Columns.dimensions, ["$.width": 25])
            try Product.filter(id: 2).updateAll(db, Product.Columns.dimensions.set(to: narrower))
            let patched = Database.jsonPatch(Product.Columns.details, with: #"{"warranty": 3, "recycled": true}"#)
            try Product.filter(id: 1).updateAll(db, Product.Columns.details.set(to: patched))

            let lamp = try Product.find(db, id: 2)
            print(lamp.dimensions.width)  // 25.0
            #expect(lamp.dimensions.width == 25)
            #expect(lamp.dimensions.height == 35.5)
            let details = try String.fetchOne(db, sql: "SELECT details FROM product WHERE id = 1")
            #expect(details == #"{"warranty":3,"recycled":true}"#)
        }
    }
}
