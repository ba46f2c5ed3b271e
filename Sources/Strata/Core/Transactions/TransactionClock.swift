import Foundation

/// A source of dates for ``Database/transactionDate``.
public protocol TransactionClock: Sendable {
    /// Returns the date that ``Database/transactionDate`` gives for the transaction that starts.
    func now(_ db: Database) throws -> Date
}

/// A clock that gives each transaction the current system date, `Date()`.
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
    /// The clock of a default configuration: the current system date.
    public static var `default`: DefaultTransactionClock { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock made from a closure.
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
        CustomTransactionClock(now)
    }
}
