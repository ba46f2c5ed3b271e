import Foundation

// Ready-made conversions for RawRepresentable types, such as enums, whose raw
// value converts: declare an empty conformance.
//
//     enum Grape: String { case chardonnay, merlot, riesling }
//     extension Grape: DatabaseValueConvertible { }
//     extension Grape: StatementColumnConvertible { } // optional fast path

extension DatabaseValueConvertible where Self: RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The database value of the raw value.
    public var databaseValue: DatabaseValue {
        rawValue.databaseValue
    }

    /// Decodes the raw value, then the value; nil when the raw value does not
    /// decode or matches no value (such as an unknown enum case).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let rawValue = RawValue.fromDatabaseValue(dbValue) else { return nil }
        return Self(rawValue: rawValue)
    }
}

extension StatementColumnConvertible where Self: RawRepresentable, Self.RawValue: StatementColumnConvertible {
    /// Reads the raw value straight from the statement, then the value; nil
    /// when the raw value matches no value.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(rawValue: rawValue)
    }
}

// Wrapper types (such as Tagged values) gain SQL support from their raw value
// with empty conformances:
//
//     extension Tagged: SQLExpressible where RawValue: SQLExpressible { }
//     extension Tagged: StatementBinding where RawValue: StatementBinding { }
//     extension Tagged: SQLSelectable where RawValue: SQLSelectable { }
//     extension Tagged: SQLOrderingTerm where RawValue: SQLOrderingTerm { }

extension SQLExpressible where Self: RawRepresentable, Self.RawValue: SQLExpressible {
    /// The expression of the raw value.
    public var sqlExpression: SQLExpression {
        rawValue.sqlExpression
    }
}

extension StatementBinding where Self: RawRepresentable, Self.RawValue: StatementBinding {
    /// Binds the raw value.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        rawValue.bind(to: sqliteStatement, at: index)
    }
}

extension SQLSelectable where Self: RawRepresentable, Self.RawValue: SQLSelectable {
    /// The selection of the raw value.
    public var sqlSelection: SQLSelection {
        rawValue.sqlSelection
    }
}

extension SQLOrderingTerm where Self: RawRepresentable, Self.RawValue: SQLOrderingTerm {
    /// Sorts by the raw value: an enum of columns sorts by the column it names.
    public var sqlOrdering: SQLOrdering {
        rawValue.sqlOrdering
    }
}
