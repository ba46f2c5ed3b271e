// Swift versions of SQLite functions and aggregates.

/// `ABS(value)`.
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .function("ABS", [value.sqlExpression]))
}

/// The `AVG(value)` aggregate.
public func average(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("AVG", value.sqlExpression)
}

/// The `AVG(value) FILTER (WHERE filter)` aggregate.
public func average(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("AVG", value.sqlExpression, filter: filter.sqlExpression)
}

/// `CAST(expression AS storageClass)`.
public func cast(_ expression: some SQLSpecificExpressible, as storageClass: Database.StorageClass) -> SQLExpression {
    SQLExpression(impl: .cast(expression.sqlExpression, storageClass.rawValue))
}

/// `COALESCE(values...)`.
public func coalesce(_ values: some Collection<any SQLSpecificExpressible>) -> SQLExpression {
    SQLExpression(impl: .function("COALESCE", values.map(\.sqlExpression)))
}

/// The `COUNT(counted)` aggregate.
public func count(_ counted: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("COUNT", counted.sqlExpression)
}

/// The `COUNT(DISTINCT value)` aggregate.
public func count(distinct value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .aggregate("COUNT", [value.sqlExpression], distinct: true, filter: nil))
}

/// `DATETIME(value, modifiers...)`.
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    SQLExpression(impl: .function("DATETIME", [value.sqlExpression] + modifiers.map(\.sqlExpression)))
}

/// `JULIANDAY(value, modifiers...)`.
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    SQLExpression(impl: .function("JULIANDAY", [value.sqlExpression] + modifiers.map(\.sqlExpression)))
}

/// `LENGTH(value)`.
public func length(_ value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(impl: .function("LENGTH", [value.sqlExpression]))
}

/// The `MAX(value)` aggregate.
public func max(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("MAX", value.sqlExpression)
}

/// The `MAX(value) FILTER (WHERE filter)` aggregate.
public func max(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("MAX", value.sqlExpression, filter: filter.sqlExpression)
}

/// The multi-argument `MAX(value1, value2, ...)` scalar function.
public func max(
    _ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible, _ values: any SQLExpressible...
) -> SQLExpression {
    SQLExpression(impl: .function("MAX", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression)))
}

/// The `MIN(value)` aggregate.
public func min(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("MIN", value.sqlExpression)
}

/// The `MIN(value) FILTER (WHERE filter)` aggregate.
public func min(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("MIN", value.sqlExpression, filter: filter.sqlExpression)
}

/// The multi-argument `MIN(value1, value2, ...)` scalar function.
public func min(
    _ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible, _ values: any SQLExpressible...
) -> SQLExpression {
    SQLExpression(impl: .function("MIN", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression)))
}

/// The `SUM(value)` aggregate.
public func sum(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("SUM", value.sqlExpression)
}

/// The `SUM(value) FILTER (WHERE filter)` aggregate.
public func sum(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("SUM", value.sqlExpression, filter: filter.sqlExpression)
}

/// The `TOTAL(value)` aggregate.
public func total(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("TOTAL", value.sqlExpression)
}

/// The `TOTAL(value) FILTER (WHERE filter)` aggregate.
public func total(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("TOTAL", value.sqlExpression, filter: filter.sqlExpression)
}

private func aggregate(_ name: String, _ value: SQLExpression, filter: SQLExpression? = nil) -> SQLExpression {
    SQLExpression(impl: .aggregate(name, [value], distinct: false, filter: filter))
}

/// A modifier of the SQLite date functions, such as `'start of year'`.
///
/// ```swift
/// // JULIANDAY("date", 'start of year')
/// julianDay(Column("date"), .startOfYear)
/// ```
public enum SQLDateModifier: SQLSpecificExpressible, Sendable {
    // Conversions between time references.

    /// `'utc'`: converts from local time to UTC.
    case utc
    /// `'localtime'`: converts from UTC to local time.
    case localTime
    /// `'unixepoch'`: the value is a number of seconds since 1970.
    case unixEpoch

    // Moves to a boundary.

    /// `'start of year'`.
    case startOfYear
    /// `'start of month'`.
    case startOfMonth
    /// `'start of day'`.
    case startOfDay
    /// `'weekday N'`: advances to the next day with this weekday number (0 is Sunday).
    case weekday(Int)

    // Shifts by an amount (negative amounts go back in time).

    /// Adds years: `'+N years'`.
    case year(Int)
    /// Adds months: `'+N months'`.
    case month(Int)
    /// Adds days: `'+N days'`.
    case day(Int)
    /// Adds hours: `'+N hours'`.
    case hour(Int)
    /// Adds minutes: `'+N minutes'`.
    case minute(Int)
    /// Adds seconds: `'+N seconds'`.
    case second(Double)

    private var modifier: String {
        switch self {
        case .utc: "utc"
        case .localTime: "localtime"
        case .unixEpoch: "unixepoch"
        case .startOfYear: "start of year"
        case .startOfMonth: "start of month"
        case .startOfDay: "start of day"
        case .weekday(let weekday): "weekday \(weekday)"
        case .year(let amount): Self.shift(amount, "years")
        case .month(let amount): Self.shift(amount, "months")
        case .day(let amount): Self.shift(amount, "days")
        case .hour(let amount): Self.shift(amount, "hours")
        case .minute(let amount): Self.shift(amount, "minutes")
        case .second(let amount): Self.shift(amount, "seconds")
        }
    }

    /// `'+3 days'`, `'-1 months'`: SQLite wants an explicit sign on positive amounts.
    private static func shift<Amount: SignedNumeric & Comparable>(_ amount: Amount, _ unit: String) -> String {
        let sign = amount >= 0 ? "+" : ""
        return "\(sign)\(amount) \(unit)"
    }

    /// The modifier, as an SQL string value.
    public var sqlExpression: SQLExpression { modifier.sqlExpression }
}

extension Sequence where Element: SQLExpressible {
    /// `element IN (values...)`: tests if the expression is one of the
    /// sequence elements (false for an empty sequence).
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.inList(element.sqlExpression, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// `element IN (values...)`: tests if the expression is one of the
    /// sequence elements (false for an empty sequence).
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.inList(element.sqlExpression, map(\.sqlExpression))
    }
}

extension Sequence where Element: SQLSpecificExpressible {
    /// Joins the expressions with an associative operator: `a + b + c`.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        SQLExpression.associative(`operator`, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLSpecificExpressible {
    /// Joins the expressions with an associative operator: `a + b + c`.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        SQLExpression.associative(`operator`, map(\.sqlExpression))
    }
}

extension ClosedRange where Bound: SQLExpressible {
    /// `element BETWEEN lowerBound AND upperBound`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.between(element, lowerBound, upperBound)
    }
}

extension ClosedRange where Bound: SQLExpressible, Bound: Strideable, Bound.Stride: SignedInteger {
    /// `element BETWEEN lowerBound AND upperBound`. This overload of countable
    /// ranges wins over `Sequence.contains(_:)`, which would list every value.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.between(element, lowerBound, upperBound)
    }
}

extension Range where Bound: SQLExpressible {
    /// `(element >= lowerBound) AND (element < upperBound)`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.halfOpenRange(element, lowerBound, upperBound)
    }
}

extension Range where Bound: SQLExpressible, Bound: Strideable, Bound.Stride: SignedInteger {
    /// `(element >= lowerBound) AND (element < upperBound)`. This overload of
    /// countable ranges wins over `Sequence.contains(_:)`, which would list every value.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.halfOpenRange(element, lowerBound, upperBound)
    }
}

extension SQLExpression {
    /// `element BETWEEN lower AND upper`.
    static func between(
        _ element: some SQLSpecificExpressible, _ lower: some SQLExpressible, _ upper: some SQLExpressible
    ) -> SQLExpression {
        SQLExpression(
            impl: .between(element.sqlExpression, lower.sqlExpression, upper.sqlExpression, negated: false))
    }

    /// `(element >= lower) AND (element < upper)`.
    static func halfOpenRange(
        _ element: some SQLSpecificExpressible, _ lower: some SQLExpressible, _ upper: some SQLExpressible
    ) -> SQLExpression {
        let element = element.sqlExpression
        return SQLExpression(
            impl: .associative(
                .and,
                [
                    SQLExpression(impl: .binary(">=", element, lower.sqlExpression)),
                    SQLExpression(impl: .binary("<", element, upper.sqlExpression)),
                ]))
    }

    /// `element IN (values)`, simplified to `element = value` for one value.
    static func inList(_ element: SQLExpression, _ values: [SQLExpression]) -> SQLExpression {
        if values.count == 1 {
            return equal(element, values[0])
        }
        return SQLExpression(impl: .inList(element, values, negated: false))
    }
}
