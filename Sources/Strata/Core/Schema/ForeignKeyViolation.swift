/// A foreign key violation, as found by ``Database/foreignKeyViolations()``.
///
/// It comes from `PRAGMA foreign_key_check`.
public struct ForeignKeyViolation: FetchableRecord, Sendable {
    /// The table that holds the invalid foreign key.
    public var originTable: String

    /// The rowid of the invalid row, or nil for a WITHOUT ROWID table.
    public var originRowID: Int64?

    /// The referenced table.
    public var destinationTable: String

    /// The identifier of the foreign key (see ``ForeignKeyInfo/id``).
    public var foreignKeyId: Int

    /// Creates a violation from a row of `PRAGMA foreign_key_check`.
    public init(row: Row) {
        originTable = row[0] ?? ""
        originRowID = row[1]
        destinationTable = row[2] ?? ""
        foreignKeyId = row[3] ?? 0
    }

    /// A description that names the row and the columns when they can be found,
    /// such as `FOREIGN KEY constraint violation - from book(authorId) to
    /// author(id), in [id:1 authorId:2 name:"Moby-Dick"]`.
    public func failureDescription(_ db: Database) throws -> String {
        let foreignKey = try db.foreignKeys(on: originTable).first { $0.id == foreignKeyId }
        var text = "FOREIGN KEY constraint violation - from \(originTable)"
        if let foreignKey {
            text += "(\(foreignKey.originColumns.joined(separator: ", ")))"
        }
        text += " to \(destinationTable)"
        if let foreignKey {
            text += "(\(foreignKey.destinationColumns.joined(separator: ", ")))"
        }
        if let originRowID {
            let sql = "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE rowid = ?"
            if let row = try Row.fetchOne(db, sql: sql, arguments: [originRowID]) {
                text += ", in \(row.description)"
            } else {
                text += ", in rowid \(originRowID)"
            }
        }
        return text
    }

    /// The `SQLITE_CONSTRAINT_FOREIGNKEY` error that describes the violation.
    public func databaseError(_ db: Database) -> DatabaseError {
        let message = (try? failureDescription(db)) ?? description
        return DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: message)
    }
}

extension ForeignKeyViolation: CustomStringConvertible {
    /// `FOREIGN KEY constraint violation - from book to author, in rowid 1`.
    public var description: String {
        var text = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
        if let originRowID {
            text += ", in rowid \(originRowID)"
        }
        return text
    }
}
