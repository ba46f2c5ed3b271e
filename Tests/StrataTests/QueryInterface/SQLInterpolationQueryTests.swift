import Strata
import StrataTestSupport
import Testing

private struct Country: TableRecord, FetchableRecord, Identifiable {
    var id: String
    init(row: Row) throws { id = row["isoCode"] }
}

/// SQL interpolation of tables, records, columns and common table expressions.
struct SQLInterpolationQueryTests {
    @Test func tablesAndColumns() throws {
        try qiPlayerDatabase().read { db throws in
            let tableSQL: SQL = "SELECT * FROM \(QIPlayer.self)"
            #expect(try tableSQL.build(db).sql == "SELECT * FROM \"player\"")
            let columnsSQL: SQL = "SELECT \(columnsOf: QIPlayer.self) FROM player"
            #expect(try columnsSQL.build(db).sql == "SELECT \"player\".* FROM player")
            let aliasedSQL: SQL = "SELECT \(columnsOf: QIPlayer.self, tableAlias: "p") FROM player p"
            #expect(try aliasedSQL.build(db).sql == "SELECT \"p\".* FROM player p")
            let tableValueSQL: SQL = "SELECT COUNT(*) FROM \(Table("player"))"
            #expect(try Int.fetchOne(db, SQLRequest<Int>(literal: tableValueSQL)) == 4)
        }
    }

    @Test func commonTableExpressions() throws {
        let cte = CommonTableExpression(named: "names", columns: ["n"], request: QIPlayer.select(Column("name")))
        try qiPlayerDatabase().read { db throws in
            let sql: SQL = "WITH \(definitionFor: cte) SELECT COUNT(*) FROM \(cte)"
            #expect(
                try sql.build(db).sql
                    == "WITH \"names\"(\"n\") AS (SELECT \"name\" FROM \"player\") SELECT COUNT(*) FROM \"names\"")
            #expect(try Int.fetchOne(db, SQLRequest<Int>(literal: sql)) == 4)
        }
    }

    @Test func selectPrimaryKey() throws {
        try qiPlayerDatabase().write { db throws in
            try db.execute(
                sql: "CREATE TABLE country (isoCode TEXT PRIMARY KEY); INSERT INTO country VALUES ('FR'), ('US')")
            #expect(try requestSQL(db, Country.selectID()) == "SELECT \"isoCode\" FROM \"country\"")
            #expect(try Set(Country.selectID().fetchAll(db)) == ["FR", "US"])
            #expect(try QIPlayer.selectPrimaryKey(as: Int64.self).order(Column("id")).fetchAll(db) == [1, 2, 3, 4])
        }
    }
}
