/// Operators that build SQL expressions from columns, values and other expressions.
extension SQLSpecificExpressible {
    /// The SQL less than: `lhs < rhs`.
    public static func < (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("<", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL less than: `lhs < rhs`.
    public static func < (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("<", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL less than: `lhs < rhs`.
    public static func < (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("<", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL less than or equal: `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("<=", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL less than or equal: `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("<=", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL less than or equal: `lhs <= rhs`.
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("<=", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL greater than: `lhs > rhs`.
    public static func > (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary(">", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL greater than: `lhs > rhs`.
    public static func > (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary(">", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL greater than: `lhs > rhs`.
    public static func > (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary(">", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL greater than or equal: `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary(">=", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL greater than or equal: `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary(">=", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL greater than or equal: `lhs >= rhs`.
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary(">=", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL sum: `lhs + rhs`.
    public static func + (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("+", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL sum: `lhs + rhs`.
    public static func + (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("+", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL sum: `lhs + rhs`.
    public static func + (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("+", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL difference: `lhs - rhs`.
    public static func - (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("-", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL difference: `lhs - rhs`.
    public static func - (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("-", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL difference: `lhs - rhs`.
    public static func - (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("-", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL product: `lhs * rhs`.
    public static func * (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("*", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL product: `lhs * rhs`.
    public static func * (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("*", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL product: `lhs * rhs`.
    public static func * (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("*", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL quotient: `lhs / rhs`.
    public static func / (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("/", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL quotient: `lhs / rhs`.
    public static func / (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("/", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL quotient: `lhs / rhs`.
    public static func / (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("/", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL left shift: `lhs << rhs`.
    public static func << (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("<<", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL left shift: `lhs << rhs`.
    public static func << (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("<<", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL left shift: `lhs << rhs`.
    public static func << (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("<<", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL right shift: `lhs >> rhs`.
    public static func >> (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .binary(">>", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL right shift: `lhs >> rhs`.
    public static func >> (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary(">>", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL right shift: `lhs >> rhs`.
    public static func >> (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary(">>", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// The SQL logical AND: `lhs && rhs`.
    public static func && (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression.associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL logical AND: `lhs && rhs`.
    public static func && (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL logical AND: `lhs && rhs`.
    public static func && (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression.associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL logical OR: `lhs || rhs`.
    public static func || (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression.associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL logical OR: `lhs || rhs`.
    public static func || (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL logical OR: `lhs || rhs`.
    public static func || (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression.associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL bitwise AND: `lhs & rhs`.
    public static func & (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression.associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL bitwise AND: `lhs & rhs`.
    public static func & (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL bitwise AND: `lhs & rhs`.
    public static func & (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression.associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL bitwise OR: `lhs | rhs`.
    public static func | (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression.associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL bitwise OR: `lhs | rhs`.
    public static func | (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// The SQL bitwise OR: `lhs | rhs`.
    public static func | (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        SQLExpression.associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// Equality: `lhs = rhs`, or `lhs IS NULL` when rhs is nil.
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression.equal(lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// Equality: `lhs = rhs`, or `rhs IS NULL` when lhs is nil.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        SQLExpression.equal(lhs?.sqlExpression ?? .null, rhs.sqlExpression)
    }

    /// Equality with an expression: `lhs = rhs`.
    public static func == (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.equal(lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `column == true` is the column itself, `column == false` its negation.
    public static func == (lhs: Self, rhs: Bool) -> SQLExpression {
        rhs ? lhs.sqlExpression : lhs.sqlExpression.negated
    }

    /// `true == column` is the column itself, `false == column` its negation.
    public static func == (lhs: Bool, rhs: Self) -> SQLExpression {
        lhs ? rhs.sqlExpression : rhs.sqlExpression.negated
    }

    /// Inequality: `lhs <> rhs`, or `lhs IS NOT NULL` when rhs is nil.
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression.notEqual(lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// Inequality: `lhs <> rhs`, or `rhs IS NOT NULL` when lhs is nil.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        SQLExpression.notEqual(lhs?.sqlExpression ?? .null, rhs.sqlExpression)
    }

    /// Inequality with an expression: `lhs <> rhs`.
    public static func != (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.notEqual(lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `column != true` is the negation of the column, `column != false` the column itself.
    public static func != (lhs: Self, rhs: Bool) -> SQLExpression {
        rhs ? lhs.sqlExpression.negated : lhs.sqlExpression
    }

    /// `true != column` is the negation of the column, `false != column` the column itself.
    public static func != (lhs: Bool, rhs: Self) -> SQLExpression {
        lhs ? rhs.sqlExpression.negated : rhs.sqlExpression
    }

    /// Identity: `lhs IS rhs`.
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression(impl: .binary("IS", lhs.sqlExpression, rhs?.sqlExpression ?? .null))
    }

    /// Identity: `lhs IS rhs`.
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("IS", lhs?.sqlExpression ?? .null, rhs.sqlExpression))
    }

    /// Identity: `lhs IS rhs`.
    public static func === (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("IS", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// Non-identity: `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression(impl: .binary("IS NOT", lhs.sqlExpression, rhs?.sqlExpression ?? .null))
    }

    /// Non-identity: `lhs IS NOT rhs`.
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        SQLExpression(impl: .binary("IS NOT", lhs?.sqlExpression ?? .null, rhs.sqlExpression))
    }

    /// Non-identity: `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(impl: .binary("IS NOT", lhs.sqlExpression, rhs.sqlExpression))
    }

    /// Logical negation: `NOT value` (`NOT IN`, `NOT EXISTS`... when possible).
    public static prefix func ! (value: Self) -> SQLExpression {
        value.sqlExpression.negated
    }

    /// Arithmetic negation: `-value`.
    public static prefix func - (value: Self) -> SQLExpression {
        SQLExpression(impl: .unary("-", value.sqlExpression))
    }

    /// Bitwise negation: `~value`.
    public static prefix func ~ (value: Self) -> SQLExpression {
        SQLExpression(impl: .unary("~", value.sqlExpression))
    }

    /// `IFNULL(lhs, rhs)`.
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(impl: .function("IFNULL", [lhs.sqlExpression, rhs.sqlExpression]))
    }

    /// `expression LIKE pattern [ESCAPE escape]`.
    public func like(_ pattern: some SQLExpressible, escape: (any SQLExpressible)? = nil) -> SQLExpression {
        SQLExpression(impl: .like(sqlExpression, pattern.sqlExpression, escape: escape?.sqlExpression, negated: false))
    }

    /// `expression COLLATE collation`.
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        SQLExpression(impl: .collated(sqlExpression, collation.rawValue))
    }

    /// `expression COLLATE collation`, for a custom collation.
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        SQLExpression(impl: .collated(sqlExpression, collation.name))
    }

    /// `swiftCapitalizedString(expression)`: see ``DatabaseFunction/capitalize``.
    public var capitalized: SQLExpression { DatabaseFunction.capitalize(self) }

    /// `swiftLowercaseString(expression)`: see ``DatabaseFunction/lowercase``.
    public var lowercased: SQLExpression { DatabaseFunction.lowercase(self) }

    /// `swiftUppercaseString(expression)`: see ``DatabaseFunction/uppercase``.
    public var uppercased: SQLExpression { DatabaseFunction.uppercase(self) }

    /// The localized capitalization: see ``DatabaseFunction/localizedCapitalize``.
    public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(self) }

    /// The localized lowercase: see ``DatabaseFunction/localizedLowercase``.
    public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(self) }

    /// The localized uppercase: see ``DatabaseFunction/localizedUppercase``.
    public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(self) }
}

extension SQLExpression {
    /// `lhs = rhs`, or `lhs IS NULL`.
    static func equal(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if rhs.isNullValue { return SQLExpression(impl: .binary("IS", lhs, .null)) }
        if lhs.isNullValue { return SQLExpression(impl: .binary("IS", rhs, .null)) }
        return SQLExpression(impl: .binary("=", lhs, rhs))
    }

    /// `lhs <> rhs`, or `lhs IS NOT NULL`.
    static func notEqual(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if rhs.isNullValue { return SQLExpression(impl: .binary("IS NOT", lhs, .null)) }
        if lhs.isNullValue { return SQLExpression(impl: .binary("IS NOT", rhs, .null)) }
        return SQLExpression(impl: .binary("<>", lhs, rhs))
    }
}
