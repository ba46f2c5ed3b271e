import Foundation
import Testing

@testable import Strata
import StrataTestSupport

struct SQLTextTests {
    @Test(
        "trimmedSQL trims like Foundation with the SQL separators, on ASCII and Unicode ends",
        arguments: [
            "", ";", " \t\n\r\u{0B}\u{0C};; ", "SELECT 1", "  SELECT 1;  ", "SELECT 1;\n", "\nSELECT 'é'",
            "SELECT 'é' ", "\u{00A0}SELECT 1\u{2028}", "SELECT 1\u{0085}", "é", " é ", "SELECT ';'", ";SELECT 1;",
            "\u{3000};SELECT '\u{1F600}';\u{3000}",
        ])
    func trimsLikeFoundation(sql: String) {
        #expect(sql.trimmedSQL == sql.trimmingCharacters(in: .sqlStatementSeparators))
    }
}
