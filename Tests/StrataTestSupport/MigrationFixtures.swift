import Foundation
import Strata

/// A migrator with migrations "v1", "v2", … up to `count`, where "vN"
/// creates the table `tN`.
package func versionedMigrator(count: Int = 3) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for version in 1...count {
        migrator.registerMigration("v\(version)") { db throws in
            try db.execute(sql: "CREATE TABLE t\(version) (id INTEGER PRIMARY KEY)")
        }
    }
    return migrator
}

/// A migrator whose migrations, registered in the order given, do nothing:
/// for the tests of what the migrator records and checks.
package func emptyMigrator(_ identifiers: String...) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for identifier in identifiers {
        migrator.registerMigration(identifier) { _ in }
    }
    return migrator
}

/// Whether the table exists in the main schema.
package func tableExists(_ db: Database, _ name: String) throws -> Bool {
    try Bool.fetchOne(
        db,
        sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)",
        arguments: [name]) ?? false
}
