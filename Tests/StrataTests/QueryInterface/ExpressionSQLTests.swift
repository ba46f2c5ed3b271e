import Strata
import StrataTestSupport
import Testing

/// The SQL of expressions, from the README "Expressions" chapter.
struct ExpressionSQLTests {
    let name = Column("name")
    let score = Column("score")
    let id = Column("id")

    private func sql(_ request: QueryInterfaceRequest<QIPlayer>) throws -> (String, StatementArguments) {
        let dbQueue = try qiPlayerDatabase()
        return try dbQueue.read { db throws in
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            return (statement.sql, statement.arguments)
        }
    }

    @Test func comparisons() throws {
        #expect(
            try sql(QIPlayer.filter(name == "Arthur")) == ("SELECT * FROM \"player\" WHERE \"name\" = ?", ["Arthur"]))
        #expect(try sql(QIPlayer.filter(name == nil)).0 == "SELECT * FROM \"player\" WHERE \"name\" IS NULL")
        #expect(try sql(QIPlayer.filter(name != nil)).0 == "SELECT * FROM \"player\" WHERE \"name\" IS NOT NULL")
        #expect(try sql(QIPlayer.filter(score === 1000)).0 == "SELECT * FROM \"player\" WHERE \"score\" IS ?")
        #expect(try sql(QIPlayer.filter(score !== 1000)).0 == "SELECT * FROM \"player\" WHERE \"score\" IS NOT ?")
        #expect(
            try sql(QIPlayer.filter(score < Column("bonus"))).0
                == "SELECT * FROM \"player\" WHERE \"score\" < \"bonus\"")
        #expect(try sql(QIPlayer.filter(score != 3)).0 == "SELECT * FROM \"player\" WHERE \"score\" <> ?")
        #expect(try sql(QIPlayer.filter(1000 <= score)).0 == "SELECT * FROM \"player\" WHERE ? <= \"score\"")
        #expect(try sql(QIPlayer.filter(Column("verified") == true)).0 == "SELECT * FROM \"player\" WHERE \"verified\"")
        #expect(
            try sql(QIPlayer.filter(Column("verified") == false)).0
                == "SELECT * FROM \"player\" WHERE NOT \"verified\"")
    }

    @Test func subqueryOperand() throws {
        let maximumScore = QIPlayer.select(max(score))
        #expect(
            try sql(QIPlayer.filter(score == maximumScore)).0
                == "SELECT * FROM \"player\" WHERE \"score\" = (SELECT MAX(\"score\") FROM \"player\")")
        let literalMaximum: SQLRequest<Int> = "SELECT max(score) FROM player"
        #expect(
            try sql(QIPlayer.filter(score == literalMaximum)).0
                == "SELECT * FROM \"player\" WHERE \"score\" = (SELECT max(score) FROM player)")
    }

    @Test func arithmetic() throws {
        let temperature = Column("temperature")
        #expect(
            try sql(QIPlayer.select((temperature * 1.8 + 32).forKey("fahrenheit"))).0
                == "SELECT (\"temperature\" * ?) + ? AS \"fahrenheit\" FROM \"player\"")
        #expect(try sql(QIPlayer.select(-score)).0 == "SELECT -\"score\" FROM \"player\"")
        #expect(try sql(QIPlayer.select(score / 2 - 1)).0 == "SELECT (\"score\" / ?) - ? FROM \"player\"")
    }

    @Test func joinedOperator() throws {
        let values: [any SQLSpecificExpressible] = [score, Column("bonus"), 1000.databaseValue]
        #expect(
            try sql(QIPlayer.select(values.joined(operator: .add))).0
                == "SELECT \"score\" + \"bonus\" + ? FROM \"player\"")
        let strings: [any SQLSpecificExpressible] = [Column("firstName"), " ".databaseValue, Column("lastName")]
        #expect(
            try sql(QIPlayer.select(strings.joined(operator: .concat))).0
                == "SELECT \"firstName\" || ? || \"lastName\" FROM \"player\"")
        let conditions: [any SQLSpecificExpressible] = [Column("verified"), score >= 1000, name != nil]
        #expect(
            try sql(QIPlayer.filter(conditions.joined(operator: .and))).0
                == "SELECT * FROM \"player\" WHERE \"verified\" AND (\"score\" >= ?) AND (\"name\" IS NOT NULL)")
        #expect(try sql(QIPlayer.filter([].joined(operator: .and))).0 == "SELECT * FROM \"player\" WHERE 1")
        #expect(try sql(QIPlayer.filter([].joined(operator: .or))).0 == "SELECT * FROM \"player\" WHERE 0")
        try DatabaseQueue().read { db throws in
            let empty: [any SQLSpecificExpressible] = []
            #expect(try Int.fetchOne(db, SQLRequest<Int>(literal: "SELECT \(empty.joined(operator: .add))")) == 0)
            #expect(try Int.fetchOne(db, SQLRequest<Int>(literal: "SELECT \(empty.joined(operator: .multiply))")) == 1)
            #expect(
                try String.fetchOne(db, SQLRequest<String>(literal: "SELECT \(empty.joined(operator: .concat))")) == "")
        }
    }

    @Test func logicalOperators() throws {
        let verified = Column("verified")
        #expect(
            try sql(QIPlayer.filter(!verified || score < 1000)).0
                == "SELECT * FROM \"player\" WHERE (NOT \"verified\") OR (\"score\" < ?)")
        #expect(
            try sql(QIPlayer.filter(name != nil && Column("height") > 1.75)).0
                == "SELECT * FROM \"player\" WHERE (\"name\" IS NOT NULL) AND (\"height\" > ?)")
    }

    @Test func inclusion() throws {
        #expect(
            try sql(QIPlayer.filter([1, 2, 3].contains(id))) == (
                "SELECT * FROM \"player\" WHERE \"id\" IN (?, ?, ?)", [1, 2, 3]
            ))
        #expect(
            try sql(QIPlayer.filter(![1, 2, 3].contains(id))).0
                == "SELECT * FROM \"player\" WHERE \"id\" NOT IN (?, ?, ?)")
        #expect(try sql(QIPlayer.filter([1].contains(id))).0 == "SELECT * FROM \"player\" WHERE \"id\" = ?")
        #expect(try sql(QIPlayer.filter([Int]().contains(id))).0 == "SELECT * FROM \"player\" WHERE 0")
        #expect(
            try sql(QIPlayer.filter((0...1000).contains(score))) == (
                "SELECT * FROM \"player\" WHERE \"score\" BETWEEN ? AND ?", [0, 1000]
            ))
        #expect(
            try sql(QIPlayer.filter((0..<1000).contains(score))).0
                == "SELECT * FROM \"player\" WHERE (\"score\" >= ?) AND (\"score\" < ?)")
        #expect(
            try sql(QIPlayer.filter(("A"..."N").contains(name))).0
                == "SELECT * FROM \"player\" WHERE \"name\" BETWEEN ? AND ?")
        #expect(
            try sql(QIPlayer.filter(!(0...1000).contains(score))).0
                == "SELECT * FROM \"player\" WHERE \"score\" NOT BETWEEN ? AND ?")
    }

    @Test func inclusionResults() throws {
        try qiPlayerDatabase().read { db throws in
            #expect(try QIPlayer.filter([1, 3].contains(id)).fetchCount(db) == 2)
            #expect(try QIPlayer.filter((0..<1000).contains(score)).fetchCount(db) == 1)
            #expect(try QIPlayer.filter((1000...2000).contains(score)).fetchCount(db) == 3)
            #expect(try QIPlayer.filter(("A"..<"C").contains(name)).fetchCount(db) == 2)
            #expect(try QIPlayer.filter([String]().contains(name)).fetchCount(db) == 0)
            #expect(try QIPlayer.filter(![String]().contains(name)).fetchCount(db) == 4)
        }
    }

    @Test func subqueryInclusionAndExists() throws {
        let selectedIds = Table("playerSelection").select(Column("playerId"))
        #expect(
            try sql(QIPlayer.filter(selectedIds.contains(id))).0
                == "SELECT * FROM \"player\" WHERE \"id\" IN (SELECT \"playerId\" FROM \"playerSelection\")")
        let literalIds: SQLRequest<Int> = "SELECT playerId FROM playerSelection"
        #expect(
            try sql(QIPlayer.filter(literalIds.contains(id))).0
                == "SELECT * FROM \"player\" WHERE \"id\" IN (SELECT playerId FROM playerSelection)")
        #expect(
            try sql(QIPlayer.filter(!selectedIds.contains(id))).0
                == "SELECT * FROM \"player\" WHERE \"id\" NOT IN (SELECT \"playerId\" FROM \"playerSelection\")")
    }

    @Test func like() throws {
        let email = Column("email")
        #expect(
            try sql(QIPlayer.filter(email.like("%@example.com"))).0 == "SELECT * FROM \"player\" WHERE \"email\" LIKE ?"
        )
        #expect(
            try sql(QIPlayer.filter(email.like("%10\\%%", escape: "\\"))) == (
                "SELECT * FROM \"player\" WHERE \"email\" LIKE ? ESCAPE ?", ["%10\\%%", "\\"]
            ))
        #expect(try sql(QIPlayer.filter(!email.like("%a"))).0 == "SELECT * FROM \"player\" WHERE \"email\" NOT LIKE ?")
    }

    @Test func collation() throws {
        #expect(
            try sql(QIPlayer.filter(name.collating(.nocase) == "arthur")).0
                == "SELECT * FROM \"player\" WHERE \"name\" = ? COLLATE NOCASE")
        #expect(
            try sql(QIPlayer.order(name.collating(.rtrim).desc)).0
                == "SELECT * FROM \"player\" ORDER BY \"name\" COLLATE RTRIM DESC")
        try qiPlayerDatabase().read { db throws in
            #expect(try QIPlayer.filter(name.collating(.nocase) == "arthur").fetchCount(db) == 1)
            #expect(try QIPlayer.filter(name == "arthur").fetchCount(db) == 0)
        }
    }

    @Test func functions() throws {
        #expect(
            try sql(QIPlayer.select(min(score), max(score))).0
                == "SELECT MIN(\"score\"), MAX(\"score\") FROM \"player\"")
        #expect(try sql(QIPlayer.select(count(name))).0 == "SELECT COUNT(\"name\") FROM \"player\"")
        #expect(try sql(QIPlayer.select(count(distinct: name))).0 == "SELECT COUNT(DISTINCT \"name\") FROM \"player\"")
        #expect(
            try sql(QIPlayer.select(julianDay(Column("date"), .startOfYear))) == (
                "SELECT JULIANDAY(\"date\", ?) FROM \"player\"", ["start of year"]
            ))
        #expect(try sql(QIPlayer.select(dateTime(Column("date"), .day(1), .localTime))).1 == ["+1 days", "localtime"])
        #expect(try sql(QIPlayer.select(name ?? "Anonymous")).0 == "SELECT IFNULL(\"name\", ?) FROM \"player\"")
        #expect(
            try sql(QIPlayer.select(name ?? Column("email"))).0 == "SELECT IFNULL(\"name\", \"email\") FROM \"player\"")
        #expect(
            try sql(QIPlayer.select(abs(score), length(name))).0
                == "SELECT ABS(\"score\"), LENGTH(\"name\") FROM \"player\"")
        #expect(
            try sql(QIPlayer.select(average(score), sum(score), total(score))).0
                == "SELECT AVG(\"score\"), SUM(\"score\"), TOTAL(\"score\") FROM \"player\"")
        #expect(
            try sql(QIPlayer.select(sum(score, filter: score > 0))).0
                == "SELECT SUM(\"score\") FILTER (WHERE \"score\" > ?) FROM \"player\"")
        #expect(try sql(QIPlayer.select(cast(score, as: .real))).0 == "SELECT CAST(\"score\" AS REAL) FROM \"player\"")
        #expect(
            try sql(QIPlayer.select(coalesce([name, Column("email")]))).0
                == "SELECT COALESCE(\"name\", \"email\") FROM \"player\"")
        #expect(try sql(QIPlayer.select(max(score, 0, 1))).0 == "SELECT MAX(\"score\", ?, ?) FROM \"player\"")
        #expect(try sql(QIPlayer.select(name.uppercased)).0 == "SELECT swiftUppercaseString(\"name\") FROM \"player\"")
    }

    @Test func functionResults() throws {
        try qiPlayerDatabase().read { db throws in
            let row = try Row.fetchOne(db, QIPlayer.select(min(score), max(score)))!
            #expect(row[0] == 500)
            #expect(row[1] == 2000)
            #expect(try Int.fetchOne(db, QIPlayer.select(count(name))) == 3)
            #expect(try Int.fetchOne(db, QIPlayer.select(sum(score, filter: score > 1000))) == 3500)
            #expect(try String.fetchOne(db, QIPlayer.select(name ?? "Anonymous").filter(id == 4)) == "Anonymous")
            #expect(try String.fetchOne(db, QIPlayer.select(name.uppercased).filter(id == 1)) == "ARTHUR")
            #expect(try String.fetchOne(db, QIPlayer.select(name.capitalized).filter(id == 1)) == "Arthur")
        }
    }

    @Test func customFunctionFromLiteral() throws {
        func date(_ value: some SQLSpecificExpressible) -> SQLExpression {
            SQL("DATE(\(value))").sqlExpression
        }
        #expect(
            try sql(QIPlayer.filter(date(Column("createdAt")) == "2020-01-23")) == (
                "SELECT * FROM \"player\" WHERE (DATE(\"createdAt\")) = ?", ["2020-01-23"]
            ))
        #expect(
            try sql(QIPlayer.filter(SQL("a OR b").sqlExpression && score > 0)).0
                == "SELECT * FROM \"player\" WHERE (a OR b) AND (\"score\" > ?)")
    }
}
