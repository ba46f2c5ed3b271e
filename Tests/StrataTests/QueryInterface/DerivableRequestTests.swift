import Strata
import StrataTestSupport
import Testing

private struct Author: TableRecord, FetchableRecord {
    enum Columns: String, ColumnExpression {
        case id, name, country
    }
    var name: String
    init(row: Row) throws { name = row["name"] }
}

extension DerivableRequest<Author> {
    fileprivate func filter(country: String) -> Self {
        filter(Author.Columns.country == country)
    }

    fileprivate func orderedByName() -> Self {
        order(Author.Columns.name.collating(.nocase))
    }
}

extension QueryInterfaceRequest<Author> {
    fileprivate func names() -> QueryInterfaceRequest<String> {
        select(Author.Columns.name, as: String.self)
    }
}

/// Reusable request methods and column enums.
struct DerivableRequestTests {
    @Test func reusableMethods() throws {
        try inMemoryWrite(
            """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT, country TEXT);
            INSERT INTO author (name, country) VALUES ('b', 'FR'), ('A', 'FR'), ('c', 'US');
            """
        ) { db throws in
            let request = Author.all().filter(country: "FR").orderedByName()
            #expect(
                try requestSQL(db, request)
                    == "SELECT * FROM \"author\" WHERE \"country\" = ? ORDER BY \"name\" COLLATE NOCASE")
            #expect(try request.names().fetchAll(db) == ["A", "b"])
            #expect(try Author.filter { $0.country == "US" }.fetchOne(db)?.name == "c")
            #expect(try Author.order { $0.name.desc }.fetchAll(db).map(\.name) == ["c", "b", "A"])
        }
    }
}
