import Foundation
import Strata
import StrataTestSupport
import Testing

/// The SQL of query interface requests, from the README "Requests" chapter.
struct RequestSQLTests {
    let name = Column("name")
    let score = Column("score")
    let team = Column("team")
    let email = Column("email")

    private func sql(_ request: some FetchRequest) throws -> String {
        let dbQueue = try qiPlayerDatabase()
        return try dbQueue.read { db in try requestSQL(db, request) }
    }

    @Test func briefExample() throws {
        try qiPlayerDatabase().read { db throws in
            let request = QIPlayer.filter(Column("score") > 1000).order(Column("name")).limit(10)
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == "SELECT * FROM \"player\" WHERE \"score\" > ? ORDER BY \"name\" LIMIT 10")
            #expect(statement.arguments == [1000])
            #expect(try request.fetchAll(db).map(\.name) == [nil, "Barbara"])
        }
    }

    @Test func allAndNone() throws {
        #expect(try sql(QIPlayer.all()) == "SELECT * FROM \"player\"")
        #expect(try sql(QIPlayer.none()) == "SELECT * FROM \"player\" WHERE ?")
        try qiPlayerDatabase().read { db throws in
            #expect(try QIPlayer.none().fetchAll(db).isEmpty)
            #expect(try QIPlayer.fetchAll(db).count == 4)
            #expect(try QIPlayer.fetchCount(db) == 4)
            #expect(try QIPlayer.fetchOne(db)?.id == 1)
            #expect(try QIPlayer.fetchSet(db).count == 4)
            #expect(try Array(QIPlayer.fetchCursor(db)).count == 4)
        }
    }

    @Test func selection() throws {
        #expect(try sql(QIPlayer.select(name, as: String.self)) == "SELECT \"name\" FROM \"player\"")
        #expect(
            try sql(QIPlayer.select(name, as: String.self).distinct()) == "SELECT DISTINCT \"name\" FROM \"player\"")
        #expect(
            try sql(QIPlayer.annotated(with: (score + Column("bonus")).forKey("total")))
                == "SELECT *, \"score\" + \"bonus\" AS \"total\" FROM \"player\"")
        #expect(try sql(QIPlayer.select(name).select(score)) == "SELECT \"score\" FROM \"player\"")
        #expect(try sql(QIPlayer.select(name.forKey("n"))) == "SELECT \"name\" AS \"n\" FROM \"player\"")
        #expect(try sql(QIPlayer.select(AllColumns(), Column.rowID)) == "SELECT *, \"rowid\" FROM \"player\"")
        #expect(
            try sql(Table("team").select(.allColumns(excluding: ["other"]), Column("id")))
                == "SELECT *, \"id\" FROM \"team\"")
        try qiPlayerDatabase().read { db throws in
            #expect(
                try QIPlayer.select(name, as: String.self).filter(name != nil).order(name).fetchAll(db) == [
                    "Arthur", "Barbara", "Craig",
                ])
            #expect(try QIPlayer.select(max(score), as: Int.self).fetchOne(db) == 2000)
            #expect(try Int.fetchOne(db, QIPlayer.select(max(score))) == 2000)
        }
    }

    @Test func filters() throws {
        #expect(
            try sql(QIPlayer.filter(name != nil).filter(email != nil))
                == "SELECT * FROM \"player\" WHERE (\"name\" IS NOT NULL) AND (\"email\" IS NOT NULL)")
        #expect(
            try sql(QIPlayer.order(name).filter(email != nil))
                == "SELECT * FROM \"player\" WHERE \"email\" IS NOT NULL ORDER BY \"name\"")
        #expect(
            try sql(
                QIPlayer.select(sql: "DATE(creationDate), COUNT(*)").filter(sql: "name = ?", arguments: ["Arthur"])
                    .group(sql: "DATE(creationDate)"))
                == "SELECT DATE(creationDate), COUNT(*) FROM \"player\" WHERE name = ? GROUP BY DATE(creationDate)")
        #expect(try sql(QIPlayer.filter(literal: "score > \(1000)")) == "SELECT * FROM \"player\" WHERE score > ?")
    }

    @Test func closureForms() throws {
        #expect(
            try sql(QIPlayer.filter { $0.team == "red" && $0.score > 500 }.order { $0.name.desc })
                == "SELECT * FROM \"player\" WHERE (\"team\" = ?) AND (\"score\" > ?) ORDER BY \"name\" DESC")
        #expect(try sql(QIPlayer.select { $0.name }) == "SELECT \"name\" FROM \"player\"")
        #expect(try sql(QIPlayer.all().select { [$0.name, $0.score] }) == "SELECT \"name\", \"score\" FROM \"player\"")
        #expect(
            try sql(QIPlayer.all().group { $0.team }.having { max($0.score) > 0 })
                == "SELECT * FROM \"player\" GROUP BY \"team\" HAVING MAX(\"score\") > ?")
        try qiPlayerDatabase().read { db throws in
            #expect(try QIPlayer.filter { $0.team == "red" }.fetchCount(db) == 2)
            #expect(try QIPlayer.filter { $0.id == 2 }.select({ $0.name }, as: String.self).fetchOne(db) == "Barbara")
        }
    }

    @Test func grouping() throws {
        #expect(
            try sql(QIPlayer.select(name, max(score)).group(name))
                == "SELECT \"name\", MAX(\"score\") FROM \"player\" GROUP BY \"name\"")
        #expect(
            try sql(QIPlayer.select(team, max(score)).group(team).having(min(score) >= 1000))
                == "SELECT \"team\", MAX(\"score\") FROM \"player\" GROUP BY \"team\" HAVING MIN(\"score\") >= ?")
        try qiPlayerDatabase().read { db throws in
            let rows = try Row.fetchAll(db, QIPlayer.select(team, max(score)).group(team).having(min(score) >= 1000))
            #expect(rows == [["team": "blue", "MAX(\"score\")": 2000]])
        }
    }

    @Test func ordering() throws {
        #expect(try sql(QIPlayer.order(name)) == "SELECT * FROM \"player\" ORDER BY \"name\"")
        #expect(
            try sql(QIPlayer.order(score.desc, name)) == "SELECT * FROM \"player\" ORDER BY \"score\" DESC, \"name\"")
        #expect(
            try sql(QIPlayer.order(score.ascNullsLast)) == "SELECT * FROM \"player\" ORDER BY \"score\" ASC NULLS LAST")
        #expect(
            try sql(QIPlayer.order(score.descNullsFirst))
                == "SELECT * FROM \"player\" ORDER BY \"score\" DESC NULLS FIRST")
        #expect(try sql(QIPlayer.order(score.asc)) == "SELECT * FROM \"player\" ORDER BY \"score\" ASC")
        #expect(try sql(QIPlayer.order(score).order(name)) == "SELECT * FROM \"player\" ORDER BY \"name\"")
        #expect(
            try sql(QIPlayer.order(score.desc, name).reversed())
                == "SELECT * FROM \"player\" ORDER BY \"score\" ASC, \"name\" DESC")
        #expect(
            try sql(QIPlayer.order(score.ascNullsLast).reversed())
                == "SELECT * FROM \"player\" ORDER BY \"score\" DESC NULLS FIRST")
        #expect(try sql(QIPlayer.all().reversed()) == "SELECT * FROM \"player\"")
        #expect(try sql(QIPlayer.order(name).unordered()) == "SELECT * FROM \"player\"")
        #expect(try sql(QIPlayer.order(sql: "name DESC")) == "SELECT * FROM \"player\" ORDER BY name DESC")
        try qiPlayerDatabase().read { db throws in
            #expect(throws: DatabaseError.self) { try QIPlayer.order(sql: "name").reversed().fetchAll(db) }
            #expect(try QIPlayer.order(score.desc).fetchAll(db).map(\.id) == [2, 4, 1, 3])
            #expect(try QIPlayer.order(score.desc).reversed().fetchAll(db).map(\.id) == [3, 1, 4, 2])
        }
    }

    @Test func chainingReplacesAndExtends() throws {
        let request =
            QIPlayer
            .filter(name != nil)
            .filter(email != nil)
            .order(name)
            .reversed()
            .order(score)
            .limit(20, offset: 40)
            .limit(10)
        #expect(
            try sql(request)
                == "SELECT * FROM \"player\" WHERE (\"name\" IS NOT NULL) AND (\"email\" IS NOT NULL) ORDER BY \"score\" LIMIT 10"
        )
    }

    @Test func limits() throws {
        #expect(try sql(QIPlayer.limit(5)) == "SELECT * FROM \"player\" LIMIT 5")
        #expect(try sql(QIPlayer.limit(5, offset: 10)) == "SELECT * FROM \"player\" LIMIT 5 OFFSET 10")
        try qiPlayerDatabase().read { db throws in
            #expect(
                try QIPlayer.all().makePreparedRequest(db, forSingleResult: true).statement.sql
                    == "SELECT * FROM \"player\" LIMIT 1")
            #expect(
                try QIPlayer.limit(3, offset: 2).makePreparedRequest(db, forSingleResult: true).statement.sql
                    == "SELECT * FROM \"player\" LIMIT 1 OFFSET 2")
            #expect(try QIPlayer.order(Column("id")).limit(2, offset: 1).fetchAll(db).map(\.id) == [2, 3])
        }
    }

    @Test func counting() throws {
        try qiPlayerDatabase().read { db throws in
            #expect(try QIPlayer.fetchCount(db) == 4)
            #expect(try QIPlayer.filter(email != nil).fetchCount(db) == 0)
            #expect(try QIPlayer.select(team).distinct().fetchCount(db) == 2)
            #expect(try QIPlayer.select(team, score).distinct().fetchCount(db) == 4)
            #expect(try QIPlayer.select(team).group(team).fetchCount(db) == 2)
            #expect(try QIPlayer.limit(2).fetchCount(db) == 2)
            #expect(try QIPlayer.select(max(score)).fetchCount(db) == 1)
            #expect(try QIPlayer.order(name).fetchCount(db) == 4)
            #expect(try Table("player").fetchCount(db) == 4)
        }
        // The SQL of the counts, read from the trace.
        let sqls = try countSQL { db in
            _ = try QIPlayer.fetchCount(db)
            _ = try QIPlayer.filter(email != nil).order(name).fetchCount(db)
            _ = try QIPlayer.select(name).distinct().fetchCount(db)
            _ = try QIPlayer.select(name, score).distinct().fetchCount(db)
        }
        #expect(
            sqls == [
                "SELECT COUNT(*) FROM \"player\"",
                "SELECT COUNT(*) FROM \"player\" WHERE \"email\" IS NOT NULL",
                "SELECT COUNT(DISTINCT \"name\") FROM \"player\"",
                "SELECT COUNT(*) FROM (SELECT DISTINCT \"name\", \"score\" FROM \"player\")",
            ])
    }

    private func countSQL(_ body: (Database) throws -> Void) throws -> [String] {
        let dbQueue = try qiPlayerDatabase()
        let sqls = try dbQueue.read { db in
            try recordSQL(db, .all, expanded: true) { try body(db) }
        }
        return sqls.filter { $0.contains("COUNT") }
    }

    @Test func commonTableExpressions() throws {
        let cte = CommonTableExpression(named: "selectedName", sql: "SELECT 'Arthur'")
        #expect(
            try sql(QIPlayer.with(cte).filter(cte.contains(name)))
                == "WITH \"selectedName\" AS (SELECT 'Arthur') SELECT * FROM \"player\" WHERE \"name\" IN \"selectedName\""
        )
        let counter = CommonTableExpression<Int>(
            recursive: true, named: "counter", columns: ["x"],
            literal: "VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x < \(5)")
        #expect(
            try sql(counter.all().with(counter))
                == "WITH RECURSIVE \"counter\"(\"x\") AS (VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x < ?) SELECT * FROM \"counter\""
        )
        let requestCTE = CommonTableExpression(named: "red", request: QIPlayer.filter(team == "red"))
        try qiPlayerDatabase().read { db throws in
            #expect(try QIPlayer.with(cte).filter(cte.contains(name)).fetchCount(db) == 1)
            #expect(try counter.all().with(counter).fetchAll(db) == [1, 2, 3, 4, 5])
            #expect(try requestCTE.all().with(requestCTE).fetchCount(db) == 2)
            #expect(
                try Row.fetchAll(db, requestCTE.all().with(requestCTE).select(name).order(name)).map { $0[0] as String }
                    == [
                        "Arthur", "Craig",
                    ])
        }
    }

    @Test func aliasesAndExists() throws {
        let teamAlias = TableAlias()
        let player = Table("player").filter(Column("teamID") == teamAlias[Column("id")])
        #expect(
            try sql(Table("team").aliased(teamAlias).filter(player.exists()))
                == "SELECT * FROM \"team\" WHERE EXISTS (SELECT * FROM \"player\" WHERE \"teamID\" = \"team\".\"id\")")
        #expect(
            try sql(Table("team").aliased(teamAlias).filter(!player.exists()))
                == "SELECT * FROM \"team\" WHERE NOT EXISTS (SELECT * FROM \"player\" WHERE \"teamID\" = \"team\".\"id\")"
        )
        let coachAlias = TableAlias(name: "coach")
        let coachedPlayer = QIPlayer.filter(Column("coachId") == coachAlias[Column("id")])
        #expect(
            try sql(QIPlayer.aliased(coachAlias).filter(coachedPlayer.exists()))
                == "SELECT \"coach\".* FROM \"player\" \"coach\" WHERE EXISTS (SELECT * FROM \"player\" WHERE \"coachId\" = \"coach\".\"id\")"
        )
        let literalCoached: SQLRequest<Row> = "SELECT * FROM player WHERE coachId = \(coachAlias[Column("id")])"
        #expect(
            try sql(QIPlayer.aliased(coachAlias).filter(literalCoached.exists()))
                == "SELECT \"coach\".* FROM \"player\" \"coach\" WHERE EXISTS (SELECT * FROM player WHERE coachId = \"coach\".\"id\")"
        )
        #expect(
            try sql(QIPlayer.aliased(TableAlias(name: "p")).filter(score > 0).order(name))
                == "SELECT \"p\".* FROM \"player\" \"p\" WHERE \"p\".\"score\" > ? ORDER BY \"p\".\"name\"")
        let unused = TableAlias()
        #expect(throws: DatabaseError.self) { try sql(QIPlayer.filter(unused[Column("id")] == 1)) }
    }

    @Test func existsQueries() throws {
        try qiPlayerDatabase().write { db throws in
            try db.execute(sql: "INSERT INTO team VALUES ('red'), ('green')")
            let teamAlias = TableAlias()
            let players = Table("player").filter(Column("team") == teamAlias[Column("id")])
            #expect(try Table("team").aliased(teamAlias).filter(players.exists()).fetchCount(db) == 1)
            #expect(try Table("team").aliased(teamAlias).filter(!players.exists()).fetchCount(db) == 1)
            #expect(try QIPlayer.all().isEmpty(db) == false)
            #expect(try QIPlayer.none().isEmpty(db))
        }
    }

    @Test func tableRequests() throws {
        #expect(try sql(Table("player").filter(Column("id") == 1)) == "SELECT * FROM \"player\" WHERE \"id\" = ?")
        #expect(try sql(Table<QIPlayer>("player").order(Column("id"))) == "SELECT * FROM \"player\" ORDER BY \"id\"")
        try qiPlayerDatabase().read { db throws in
            #expect(try Table("player").fetchAll(db).count == 4)
            #expect(try Table<QIPlayer>("player").fetchOne(db)?.id == 1)
            #expect(
                try Table<String>("player").select(Column("name")).filter(Column("name") != nil).order(Column("name"))
                    .fetchAll(db) == ["Arthur", "Barbara", "Craig"])
            #expect(try QIPlayer.all().asRequest(of: Row.self).fetchOne(db)?["name"] == "Arthur")
        }
    }

    @Test func whenConnectedVariants() throws {
        try qiPlayerDatabase().read { db throws in
            let request = QIPlayer.all()
                .filterWhenConnected { _ in Column("score") > 600 }
                .orderWhenConnected { _ in [Column("score").desc] }
                .selectWhenConnected { _ in [Column("id")] }
                .annotatedWhenConnected { _ in [Column("name")] }
            #expect(
                try requestSQL(db, request)
                    == "SELECT \"id\", \"name\" FROM \"player\" WHERE \"score\" > ? ORDER BY \"score\" DESC")
            let grouped = QIPlayer.select(Column("team"))
                .groupWhenConnected { _ in [Column("team")] }
                .havingWhenConnected { _ in count(Column("id")) > 1 }
            #expect(
                try requestSQL(db, grouped)
                    == "SELECT \"team\" FROM \"player\" GROUP BY \"team\" HAVING COUNT(\"id\") > ?")
        }
    }
}
