import Foundation
import GRDB
import WorkloadSupport

/// Point queries on a `SizeFixture` file (the size curve of `cost-curves`),
/// identical for Strata and GRDB (StrataWorkloads has the same code): each
/// one read access of a pool, as a server's request handler makes it,
/// through a cached statement.
public final class GRDBPointQueries: @unchecked Sendable {
    let dbPool: DatabasePool

    /// Opens a pool on the file at `path`, each connection with
    /// `PRAGMA mmap_size = mmapSize` (0: no memory map).
    public init(path: String, mmapSize: Int) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = \(mmapSize)")
        }
        dbPool = try DatabasePool(path: path, configuration: configuration)
    }

    /// The row with this primary key; returns its id plus its payload's size.
    public func fetch(id: Int) throws -> Int { try fetch(SizeFixture.primaryKeySQL, id) }

    /// The row with this secondary key; returns its id plus its payload's size.
    public func fetch(key: Int) throws -> Int { try fetch(SizeFixture.secondaryKeySQL, key) }

    private func fetch(_ sql: String, _ argument: Int) throws -> Int {
        try dbPool.read { db in
            let statement = try db.cachedStatement(sql: sql)
            guard let row = try Row.fetchOne(statement, arguments: [argument]) else { return 0 }
            let id: Int = row[0]
            let payload: Data = row[3]
            return id + payload.count
        }
    }
}
