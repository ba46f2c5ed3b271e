import Foundation

// Computed by the statement authorizer when a statement is prepared (Core),
// given to transaction observers (Observation).

/// The kind of change a statement may perform, as given to
/// ``TransactionObserver/observes(eventsOfKind:)`` before it runs.
///
/// ```swift
/// func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
///     eventKind.tableName == "player"
/// }
/// ```
@frozen
public enum DatabaseEventKind {
    /// Rows may be inserted in the table.
    case insert(tableName: String)

    /// Rows may be deleted from the table.
    case delete(tableName: String)

    /// The listed columns of the table may be updated.
    case update(tableName: String, columnNames: Set<String>)

    /// The name of the table the change applies to.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _):
            return tableName
        }
    }
}

extension DatabaseEventKind: Sendable {}

extension DatabaseEventKind {
    /// Whether both kinds are the same kind of change of the same table and
    /// columns, with the same spelling (not a public `Equatable` conformance:
    /// GRDB declares none).
    func isSame(as other: DatabaseEventKind) -> Bool {
        switch (self, other) {
        case (.insert(let a), .insert(let b)), (.delete(let a), .delete(let b)):
            return a == b
        case (.update(let a, let columnsA), .update(let b, let columnsB)):
            return a == b && columnsA == columnsB
        default:
            return false
        }
    }
}
