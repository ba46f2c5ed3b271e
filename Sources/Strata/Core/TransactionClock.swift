import Foundation

/// A source of dates for ``Database/transactionDate``.
public protocol TransactionClock: Sendable {
    /// The date of a new transaction.
    func now(_ db: Database) throws -> Date
}

/// The system clock.
public struct DefaultTransactionClock: TransactionClock {
    /// Returns the current date.
    public func now(_ db: Database) throws -> Date { Date() }
}

/// A clock made from a closure, handy in tests.
public struct CustomTransactionClock: TransactionClock {
    private let _now: @Sendable (Database) throws -> Date

    /// Creates a clock from a closure.
    public init(_ now: @escaping @Sendable (Database) throws -> Date) {
        _now = now
    }

    /// Returns the closure's date.
    public func now(_ db: Database) throws -> Date { try _now(db) }
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The system clock.
    public static var `default`: DefaultTransactionClock { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock made from a closure.
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
        CustomTransactionClock(now)
    }
}
