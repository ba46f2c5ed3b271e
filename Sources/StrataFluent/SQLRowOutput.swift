#if Fluent
    import FluentKit
    import SQLKit

    /// A row as Fluent reads it: a model's fields are the columns
    /// `<schema>_<field>` (the aliases FluentSQL gives them), once
    /// `schema(_:)` says which model reads.
    struct SQLRowOutput: DatabaseOutput {
        let row: any SQLRow
        var schema: String?

        init(row: any SQLRow, schema: String? = nil) {
            self.row = row
            self.schema = schema
        }

        var description: String { String(describing: row) }

        func schema(_ schema: String) -> any DatabaseOutput {
            SQLRowOutput(row: row, schema: schema)
        }

        func contains(_ key: FieldKey) -> Bool {
            row.contains(column: column(key))
        }

        func decodeNil(_ key: FieldKey) throws -> Bool {
            try row.decodeNil(column: column(key))
        }

        func decode<T: Decodable>(_ key: FieldKey, as type: T.Type) throws -> T {
            try row.decode(column: column(key), as: T.self)
        }

        private func column(_ key: FieldKey) -> String {
            guard let schema else { return key.description }
            return FieldKey.prefix(.prefix(.string(schema), "_"), key).description
        }
    }
#endif
