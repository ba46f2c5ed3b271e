#if SQLKit
    import SQLKit
    import Strata

    /// A row that SQLKit reads: the values of one row of a statement,
    /// copied, with the column names that all rows of the statement share.
    struct StrataSQLRow: SQLRow {
        /// The column names of a statement, and the index of each (the
        /// first of duplicate names wins).
        final class Columns: Sendable {
            let names: [String]
            let indexes: [String: Int]

            init(_ names: [String]) {
                self.names = names
                indexes = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
        }

        let columns: Columns
        let values: [DatabaseValue]
        let decoder: StrataSQLDataDecoder

        var allColumns: [String] { columns.names }

        func contains(column: String) -> Bool { columns.indexes[column] != nil }

        /// True for a NULL, and for a missing column.
        func decodeNil(column: String) throws -> Bool {
            guard let index = columns.indexes[column] else { return true }
            return values[index].isNull
        }

        func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
            guard let index = columns.indexes[column] else {
                throw DecodingError.keyNotFound(
                    SQLCodingKey(column),
                    .init(codingPath: [], debugDescription: "No column \(column) in the row (\(allColumns))"))
            }
            return try decoder.decode(type, from: values[index])
        }
    }

    /// The coding key of a missing column.
    private struct SQLCodingKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    extension StrataSQLRow: CustomStringConvertible {
        var description: String {
            "[" + zip(columns.names, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
        }
    }
#endif
