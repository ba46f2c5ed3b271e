import Foundation
import Strata

/// The value of the single column of a query, decoded through the statement
/// fast path (`StatementColumnConvertible`, on a live row and with `fetchOne`)
/// and through `fromDatabaseValue`. A value that fails to decode is nil.
package struct DecodedBothWays<Value> {
    package var fast: Value?
    package var fetched: Value?
    package var slow: Value?

    package init(fast: Value? = nil, fetched: Value? = nil, slow: Value? = nil) {
        self.fast = fast
        self.fetched = fetched
        self.slow = slow
    }
}

package func decodeBothWays<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type,
    _ db: Database,
    sql: String,
    arguments: StatementArguments = StatementArguments()
) throws -> DecodedBothWays<Value> {
    let dbValue = try DatabaseValue.fetchOne(db, sql: sql, arguments: arguments) ?? .null
    let slow = Value.fromDatabaseValue(dbValue)
    let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
    let row = try cursor.next()!
    let fast = try? row.decode(Value.self, atIndex: 0)
    let fetched = (try? Value.fetchOne(db, sql: sql, arguments: arguments)) ?? nil
    return DecodedBothWays(fast: fast, fetched: fetched, slow: slow)
}

extension DecodedBothWays: Equatable where Value: Equatable {
    /// True when all three ways agree.
    package var agree: Bool { fast == slow && fetched == slow }
}
