import Foundation
import StrataSQLite
import WorkloadSupport

/// The C baseline of the optional-heavy records (issue 46): the row of
/// `entry` as a plain struct of optionals.
struct CEntry {
    var id: Int64
    var parentId: Int64?
    var ownerId: Int64?
    var texts: (String?, String?, String?, String?, String?, String?, String?, String?, String?, String?)
    var amount: Decimal?
}

extension CReads {
    /// Reads the 14 columns of `entry` by position into `CEntry` values,
    /// `OptionalHeavyFixture.fetchCount` times: one `sqlite3_column_type`
    /// per optional column, then its value; the amount from its INTEGER or
    /// REAL value.
    public func fetchOptionalHeavyRecords() throws -> Int {
        let stmt = try connection.prepare(OptionalHeavyFixture.selectSQL)
        defer { sqlite3_finalize(stmt) }
        @inline(__always) func int64(_ index: CInt) -> Int64? {
            sqlite3_column_type(stmt, index) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, index)
        }
        @inline(__always) func text(_ index: CInt) -> String? {
            guard let text = sqlite3_column_text(stmt, index) else { return nil }
            let count = Int(sqlite3_column_bytes(stmt, index))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }
        var count = 0
        for _ in 0..<OptionalHeavyFixture.fetchCount {
            var entries: [CEntry] = []
            while true {
                let code = sqlite3_step(stmt)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { try connection.check(code); break }
                let amount: Decimal? =
                    switch sqlite3_column_type(stmt, 13) {
                    case SQLITE_INTEGER: Decimal(sqlite3_column_int64(stmt, 13))
                    case SQLITE_FLOAT: decimal(sqlite3_column_double(stmt, 13))
                    default: nil
                    }
                entries.append(
                    CEntry(
                        id: sqlite3_column_int64(stmt, 0), parentId: int64(1), ownerId: int64(2),
                        texts: (
                            text(3), text(4), text(5), text(6), text(7), text(8), text(9), text(10), text(11), text(12)
                        ),
                        amount: amount))
            }
            sqlite3_reset(stmt)
            count += entries.count
        }
        return count
    }
}

/// The decimal of a REAL, as Foundation's `Decimal(_: Double)` builds it,
/// at the cost of a few integer divisions: the double is scaled by tens to
/// just below 2^64, truncated, and its trailing zeros removed (Strata's
/// conversion does the same; Foundation's removes them through arrays, 18,000
/// instructions a value), so that this floor stays below any library.
/// Foundation's own for zero and magnitudes out of the fast path's range.
@inline(__always)
private func decimal(_ double: Double) -> Decimal {
    guard double != 0 else { return Decimal(double) }
    let limit = 18_446_744_073_709_551_616.0
    var magnitude = double.magnitude
    var exponent = 0
    while magnitude < limit {
        if exponent <= -99 { return Decimal(double) }
        magnitude *= 10
        exponent -= 1
    }
    while magnitude >= limit {
        if exponent >= 99 { return Decimal(double) }
        magnitude /= 10
        exponent += 1
    }
    var significand = UInt64(magnitude)
    while significand % 10 == 0 {
        significand /= 10
        exponent += 1
    }
    return Decimal(sign: double < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(significand))
}
