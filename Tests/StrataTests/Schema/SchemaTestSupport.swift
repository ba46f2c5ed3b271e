import Strata

/// Runs `block` and returns the SQL of the statements it executed, without
/// savepoint, transaction and introspection statements.
func executedSQL(_ db: Database, _ block: () throws -> Void) rethrows -> [String] {
    var statements: [String] = []
    db.trace { event in
        if case .statement(let statement) = event {
            statements.append(statement.sql)
        }
    }
    defer { db.trace(options: [], nil) }
    try block()
    let ignoredPrefixes = ["SAVEPOINT", "RELEASE", "BEGIN", "COMMIT", "ROLLBACK", "SELECT", "PRAGMA"]
    return statements.filter { sql in
        !ignoredPrefixes.contains { sql.uppercased().hasPrefix($0) }
    }
}
