#if Fluent
    import FluentKit
    import FluentSQL
    import SQLKit

    /// The SQLite column types of Fluent's data types, as
    /// fluent-sqlite-driver declares them: strings and enums are `TEXT`,
    /// dates `REAL` (seconds since 1970), 64-bit integers `INTEGER`; the
    /// other types keep FluentSQL's names (`JSON`, `UUID`, `BLOB`...).
    struct StrataSQLiteConverterDelegate: SQLConverterDelegate {
        func customDataType(_ dataType: DatabaseSchema.DataType) -> (any SQLExpression)? {
            switch dataType {
            case .string: SQLRaw("TEXT")
            case .datetime: SQLRaw("REAL")
            case .int64: SQLRaw("INTEGER")
            case .enum: SQLRaw("TEXT")
            default: nil
            }
        }
    }
#endif
