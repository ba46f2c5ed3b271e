import Testing

@testable import Strata
import StrataTestSupport

/// The two parts of the statement statistics that have no public face: the
/// normalization of SQL and the histogram of durations.
struct StatementStatisticsInternalTests {
    @Test(
        "literals and parameters become ?, identifiers and keywords stay as written",
        arguments: [
            ("SELECT * FROM player WHERE id = 12", "SELECT * FROM player WHERE id = ?"),
            ("SELECT 'it''s', X'00FF', 1.5e-3, .5, 0x1F", "SELECT ?, ?, ?, ?, ?"),
            (
                "SELECT * FROM t WHERE a = ? AND b = ?2 AND c = :c AND d = @d AND e = $e",
                "SELECT * FROM t WHERE a = ? AND b = ? AND c = ? AND d = ? AND e = ?"
            ),
            (#"SELECT "col 1", `x`, [y], t1.a2 FROM "t""#, #"SELECT "col 1", `x`, [y], t1.a2 FROM "t""#),
            ("SELECT  a ,b\n\tFROM t -- comment\n WHERE /* inline */ a=1", "SELECT a, b FROM t WHERE a=?"),
            ("SELECT * FROM t WHERE id IN (1, 2, 3)", "SELECT * FROM t WHERE id IN (...)"),
            (#"SELECT * FROM "t" WHERE "id" IN (?,?)"#, #"SELECT * FROM "t" WHERE "id" IN (...)"#),
            ("SELECT * FROM t WHERE id IN (?)", "SELECT * FROM t WHERE id IN (...)"),
            ("SELECT * FROM t WHERE id IN (SELECT a FROM u)", "SELECT * FROM t WHERE id IN (SELECT a FROM u)"),
            ("SELECT * FROM t WHERE x IN (?, a)", "SELECT * FROM t WHERE x IN (?, a)"),
            ("SELECT * FROM a JOIN (SELECT ?) b", "SELECT * FROM a JOIN (SELECT ?) b"),
            ("SELECT xin(?, ?)", "SELECT xin(?, ?)"),
        ])
    func normalization(sql: String, normalized: String) {
        #expect(NormalizedSQL(sql).text == normalized)
    }

    @Test("the identifier is a stable FNV-1a hash, in 16 hexadecimal digits")
    func identifier() {
        // FNV-1a 64 of the empty string and of "a": the published test values.
        #expect(NormalizedSQL("").identifier == "cbf29ce484222325")
        #expect(NormalizedSQL("a").identifier == "af63dc4c8601ec8c")
        #expect(NormalizedSQL("SELECT 1").identifier == NormalizedSQL("SELECT 2").identifier)
    }

    @Test("percentiles come out within 6.25% of the durations recorded")
    func histogram() {
        var histogram = DurationHistogram()
        #expect(histogram.percentile(0.5) == nil)
        // 1 µs ... 100 µs, one each.
        for micro in 1...100 { histogram.record(UInt64(micro) * 1000) }
        #expect(histogram.count == 100)
        #expect(histogram.minimum == 1000)
        #expect(histogram.maximum == 100_000)
        let median = Double(histogram.percentile(0.5)!)
        #expect(abs(median - 50_000) / 50_000 <= 0.0625)
        let p99 = Double(histogram.percentile(0.99)!)
        #expect(abs(p99 - 99_000) / 99_000 <= 0.0625)
        #expect(histogram.percentile(1) == 100_000)
        #expect(histogram.percentile(0) == 1000)
    }

    @Test("durations from 0 ns to hours fall in a bucket")
    func histogramRange() {
        var histogram = DurationHistogram()
        for value: UInt64 in [0, 1, 255, 256, 1 << 20, 1 << 40, 1 << 41, UInt64.max] { histogram.record(value) }
        #expect(histogram.count == 8)
        #expect(histogram.percentile(0.01) == 0)
        #expect(histogram.percentile(1) == UInt64.max)
    }
}
