import Foundation
import Strata

/// Whether `dbValue`, selected from a new in-memory database, decodes as
/// `Value` in none of the ways of ``decodeBothWays(_:_:sql:arguments:)``:
/// the statement fast path, `fetchOne`, and `fromDatabaseValue`.
package func decodesInNoWay<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type, _ dbValue: DatabaseValue
) throws -> Bool {
    try DatabaseQueue().read { db in
        let decoded = try decodeBothWays(type, db, sql: "SELECT ?", arguments: [dbValue])
        return decoded.fast == nil && decoded.fetched == nil && decoded.slow == nil
    }
}
