/// How the left (origin) and right (destination) tables of an association
/// are joined: through a foreign key, or an explicit condition.
struct SQLJoinCondition: Sendable {
    enum Impl: Sendable {
        /// A foreign key held by one of the two tables.
        ///
        /// `foreignKeyOnLeft` is true for `belongsTo` (the origin holds the
        /// foreign key), false for `hasMany` and `hasOne`.
        case foreignKey(ForeignKey?, leftTable: String, rightTable: String, foreignKeyOnLeft: Bool)
        /// An explicit condition (`association(to:on:)`), whose columns
        /// refer to two placeholder aliases for the left and right tables.
        case expression(left: TableAliasBase, right: TableAliasBase, SQLExpression)
        /// No condition: every pair of rows (`association(to:)` without `on:`).
        case none
    }

    var impl: Impl

    /// The condition with left and right tables swapped.
    var reversed: SQLJoinCondition {
        switch impl {
        case .foreignKey(let foreignKey, let leftTable, let rightTable, let foreignKeyOnLeft):
            return SQLJoinCondition(
                impl: .foreignKey(
                    foreignKey, leftTable: rightTable, rightTable: leftTable, foreignKeyOnLeft: !foreignKeyOnLeft))
        case .expression(let left, let right, let expression):
            return SQLJoinCondition(impl: .expression(left: right, right: left, expression))
        case .none:
            return self
        }
    }

    /// The joined column pairs, or nil when the condition is not a foreign key.
    func columnPairs(_ db: Database) throws -> [(left: String, right: String)]? {
        guard case .foreignKey(let foreignKey, let leftTable, let rightTable, let foreignKeyOnLeft) = impl else {
            return nil
        }
        let holder = foreignKeyOnLeft ? leftTable : rightTable
        let referenced = foreignKeyOnLeft ? rightTable : leftTable
        let mapping = try Self.resolve(db, foreignKey: foreignKey, holder: holder, referenced: referenced)
        return mapping.map { pair in
            foreignKeyOnLeft
                ? (left: pair.origin, right: pair.destination) : (left: pair.destination, right: pair.origin)
        }
    }

    /// The join expression: `"right"."col" = "left"."col" AND ...`, or nil for no condition.
    func expression(
        _ context: SQLGenerationContext, left: TableAliasBase, right: TableAliasBase
    ) throws -> SQLExpression? {
        switch impl {
        case .none:
            return nil
        case .expression(let leftPlaceholder, let rightPlaceholder, let expression):
            // The placeholders name the joined tables.
            context.aliasNames[ObjectIdentifier(leftPlaceholder)] = try context.qualifier(left)
            context.aliasNames[ObjectIdentifier(rightPlaceholder)] = try context.qualifier(right)
            return expression
        case .foreignKey:
            let pairs = try columnPairs(context.db) ?? []
            let equalities = pairs.map { pair in
                SQLExpression(
                    impl: .binary(
                        "=", SQLExpression(impl: .qualifiedColumn(pair.right, right)),
                        SQLExpression(impl: .qualifiedColumn(pair.left, left))))
            }
            return equalities.count == 1 ? equalities[0] : SQLExpression.associative(.and, equalities)
        }
    }

    /// The (origin column, destination column) pairs of the foreign key from
    /// `holder` to `referenced`, from the explicit foreign key or the schema.
    ///
    /// An explicit foreign key that names both its columns and their
    /// destination keeps its own spelling, and the schema is not read. One
    /// that names its origin columns only gets the schema's spelling of
    /// both, when the schema declares it (`ForeignKey(["PARENTID"])` for
    /// `parentId REFERENCES parents(id)` joins on `"id" = "parentId"`).
    private static func resolve(
        _ db: Database, foreignKey: ForeignKey?, holder: String, referenced: String
    ) throws -> [(origin: String, destination: String)] {
        if let foreignKey, let destinationColumns = foreignKey.destinationColumns {
            return try pairs(foreignKey.originColumns, destinationColumns, holder: holder, referenced: referenced)
        }
        let schemaKeys = try schemaForeignKeys(db, from: holder, to: referenced)
        if let foreignKey {
            let originColumns = foreignKey.originColumns.map { $0.lowercased() }
            if let schemaKey = schemaKeys.first(where: { schemaKey in
                schemaKey.originColumns.map { $0.lowercased() } == originColumns
            }) {
                return schemaKey.mapping
            }
            return try pairs(
                foreignKey.originColumns, db.primaryKey(referenced).columns, holder: holder, referenced: referenced)
        }
        switch schemaKeys.count {
        case 0:
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "Could not infer foreign key from \(holder) to \(referenced): the database schema "
                    + "declares none. Configure the association with `using: ForeignKey([...])`.")
        case 1:
            return schemaKeys[0].mapping
        default:
            let keys = schemaKeys.map { "[" + $0.originColumns.joined(separator: ", ") + "]" }
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "Ambiguous foreign key from \(holder) to \(referenced): the database schema declares "
                    + "\(keys.joined(separator: ", ")). Configure the association with `using: ForeignKey([...])`.")
        }
    }

    /// The origin and destination columns, paired; throws when their
    /// counts differ.
    private static func pairs(
        _ originColumns: [String], _ destinationColumns: [String], holder: String, referenced: String
    ) throws -> [(origin: String, destination: String)] {
        guard destinationColumns.count == originColumns.count else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "Foreign key from \(holder) to \(referenced) has \(originColumns.count) "
                    + "column(s), and the referenced key has \(destinationColumns.count) column(s)")
        }
        return zip(originColumns, destinationColumns).map { (origin: $0, destination: $1) }
    }

    private static func schemaForeignKeys(
        _ db: Database, from holder: String, to referenced: String
    ) throws -> [ForeignKeyInfo] {
        // Views have no foreign keys.
        guard try db.tableExists(holder) else { return [] }
        return try db.foreignKeys(on: holder).filter {
            $0.destinationTable.caseInsensitiveCompare(referenced) == .orderedSame
        }
    }
}
