#if Fluent
    import FluentKit

    /// The statements of a Fluent schema change on SQLite, whose
    /// `ALTER TABLE` adds, drops or renames one column at a time and
    /// changes no constraint.
    enum SQLiteSchemaChanges {
        /// The error of a change SQLite cannot make in place.
        struct UnsupportedAlter: Error, CustomStringConvertible {
            var description: String { "SQLite only supports adding columns in ALTER TABLE statements." }
        }

        /// `schema` as statements that run one after the other: an update
        /// becomes one statement per added or dropped column. Changing
        /// the type of an enum column does nothing (enums are text); any
        /// other change of a column, and any change of constraints, throws
        /// ``UnsupportedAlter``.
        static func statements(for schema: DatabaseSchema) throws -> [DatabaseSchema] {
            guard case .update = schema.action else { return [schema] }
            var schema = schema
            schema.updateFields.removeAll { field in
                if case .dataType(_, .enum) = field { return true }
                return false
            }
            guard schema.createConstraints.isEmpty, schema.updateFields.isEmpty, schema.deleteConstraints.isEmpty
            else { throw UnsupportedAlter() }
            let additions = schema.createFields.map { field -> DatabaseSchema in
                var statement = DatabaseSchema(schema: schema.schema, space: schema.space)
                statement.action = .update
                statement.createFields = [field]
                return statement
            }
            let deletions = schema.deleteFields.map { field -> DatabaseSchema in
                var statement = DatabaseSchema(schema: schema.schema, space: schema.space)
                statement.action = .update
                statement.deleteFields = [field]
                return statement
            }
            return additions + deletions
        }
    }
#endif
