/// Operators between association aggregates, and between aggregates and
/// values: `Team.players.count >= 5`, `Author.books.count + 1`.
extension AssociationAggregate {
    /// The AND of an aggregate and a value, or of two aggregates.
    public static func && (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 && $1 }
    }

    /// The AND of an aggregate and a value, or of two aggregates.
    public static func && (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 && rhs }
    }

    /// The AND of an aggregate and a value, or of two aggregates.
    public static func && (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs && $0 }
    }

    /// The OR of an aggregate and a value, or of two aggregates.
    public static func || (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 || $1 }
    }

    /// The OR of an aggregate and a value, or of two aggregates.
    public static func || (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 || rhs }
    }

    /// The OR of an aggregate and a value, or of two aggregates.
    public static func || (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs || $0 }
    }

    /// The multiplication of an aggregate and a value, or of two aggregates.
    public static func * (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 * $1 }
    }

    /// The multiplication of an aggregate and a value, or of two aggregates.
    public static func * (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 * rhs }
    }

    /// The multiplication of an aggregate and a value, or of two aggregates.
    public static func * (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs * $0 }
    }

    /// The addition of an aggregate and a value, or of two aggregates.
    public static func + (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 + $1 }
    }

    /// The addition of an aggregate and a value, or of two aggregates.
    public static func + (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 + rhs }
    }

    /// The addition of an aggregate and a value, or of two aggregates.
    public static func + (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs + $0 }
    }

    /// The subtraction of an aggregate and a value, or of two aggregates.
    public static func - (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 - $1 }
    }

    /// The subtraction of an aggregate and a value, or of two aggregates.
    public static func - (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 - rhs }
    }

    /// The subtraction of an aggregate and a value, or of two aggregates.
    public static func - (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs - $0 }
    }

    /// The division of an aggregate and a value, or of two aggregates.
    public static func / (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 / $1 }
    }

    /// The division of an aggregate and a value, or of two aggregates.
    public static func / (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 / rhs }
    }

    /// The division of an aggregate and a value, or of two aggregates.
    public static func / (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs / $0 }
    }

    /// The less than of an aggregate and a value, or of two aggregates.
    public static func < (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 < $1 }
    }

    /// The less than of an aggregate and a value, or of two aggregates.
    public static func < (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 < rhs }
    }

    /// The less than of an aggregate and a value, or of two aggregates.
    public static func < (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs < $0 }
    }

    /// The less than or equal of an aggregate and a value, or of two aggregates.
    public static func <= (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 <= $1 }
    }

    /// The less than or equal of an aggregate and a value, or of two aggregates.
    public static func <= (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 <= rhs }
    }

    /// The less than or equal of an aggregate and a value, or of two aggregates.
    public static func <= (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs <= $0 }
    }

    /// The greater than of an aggregate and a value, or of two aggregates.
    public static func > (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 > $1 }
    }

    /// The greater than of an aggregate and a value, or of two aggregates.
    public static func > (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 > rhs }
    }

    /// The greater than of an aggregate and a value, or of two aggregates.
    public static func > (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs > $0 }
    }

    /// The greater than or equal of an aggregate and a value, or of two aggregates.
    public static func >= (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 >= $1 }
    }

    /// The greater than or equal of an aggregate and a value, or of two aggregates.
    public static func >= (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 >= rhs }
    }

    /// The greater than or equal of an aggregate and a value, or of two aggregates.
    public static func >= (lhs: some SQLExpressible, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs >= $0 }
    }

    /// The equality (`IS NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func == (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 == $1 }
    }

    /// The equality (`IS NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func == (lhs: AssociationAggregate<RowDecoder>, rhs: (any SQLExpressible)?) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 == rhs }
    }

    /// The equality (`IS NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func == (lhs: (any SQLExpressible)?, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs == $0 }
    }

    /// The equality (`IS NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func == (lhs: AssociationAggregate<RowDecoder>, rhs: Bool) -> AssociationAggregate<RowDecoder> {
        lhs.map { $0 == rhs }
    }

    /// The equality (`IS NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func == (lhs: Bool, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
        rhs.map { lhs == $0 }
    }

    /// The inequality (`IS NOT NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func != (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 != $1 }
    }

    /// The inequality (`IS NOT NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func != (lhs: AssociationAggregate<RowDecoder>, rhs: (any SQLExpressible)?) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 != rhs }
    }

    /// The inequality (`IS NOT NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func != (lhs: (any SQLExpressible)?, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs != $0 }
    }

    /// The inequality (`IS NOT NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func != (lhs: AssociationAggregate<RowDecoder>, rhs: Bool) -> AssociationAggregate<RowDecoder> {
        lhs.map { $0 != rhs }
    }

    /// The inequality (`IS NOT NULL` for nil) of an aggregate and a value, or of two aggregates.
    public static func != (lhs: Bool, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
        rhs.map { lhs != $0 }
    }

    /// The `IS` of an aggregate and a value, or of two aggregates.
    public static func === (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 === $1 }
    }

    /// The `IS` of an aggregate and a value, or of two aggregates.
    public static func === (lhs: AssociationAggregate<RowDecoder>, rhs: (any SQLExpressible)?) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 === rhs }
    }

    /// The `IS` of an aggregate and a value, or of two aggregates.
    public static func === (lhs: (any SQLExpressible)?, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs === $0 }
    }

    /// The `IS NOT` of an aggregate and a value, or of two aggregates.
    public static func !== (lhs: AssociationAggregate<RowDecoder>, rhs: AssociationAggregate<RowDecoder>)
        -> AssociationAggregate<RowDecoder>
    {
        combine(lhs, rhs) { $0 !== $1 }
    }

    /// The `IS NOT` of an aggregate and a value, or of two aggregates.
    public static func !== (lhs: AssociationAggregate<RowDecoder>, rhs: (any SQLExpressible)?) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map { $0 !== rhs }
    }

    /// The `IS NOT` of an aggregate and a value, or of two aggregates.
    public static func !== (lhs: (any SQLExpressible)?, rhs: AssociationAggregate<RowDecoder>) -> AssociationAggregate<
        RowDecoder
    > {
        rhs.map { lhs !== $0 }
    }

    /// The aggregate, or a default value when it is NULL: `IFNULL(aggregate, value)`.
    public static func ?? (lhs: AssociationAggregate<RowDecoder>, rhs: some SQLExpressible) -> AssociationAggregate<
        RowDecoder
    > {
        lhs.map(keepingKey: true) { $0 ?? rhs }
    }

    /// The logical negation of an aggregate.
    public static prefix func ! (aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
        aggregate.map { !$0 }
    }

    /// The arithmetic negation of an aggregate.
    public static prefix func - (aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
        aggregate.map { -$0 }
    }
}

/// The absolute value of an aggregate: `ABS(aggregate)`.
public func abs<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.map { abs($0) }
}

/// An aggregate cast to a storage class: `CAST(aggregate AS REAL)`.
public func cast<RowDecoder>(
    _ aggregate: AssociationAggregate<RowDecoder>, as storageClass: Database.StorageClass
) -> AssociationAggregate<RowDecoder> {
    aggregate.map(keepingKey: true) { cast($0, as: storageClass) }
}

/// The length of an aggregate: `LENGTH(aggregate)`.
public func length<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.map { length($0) }
}
