import Foundation
import StrataSQLite

extension Changeset {
    /// Why a change could not be applied as it is.
    public enum ConflictKind: Sendable, Hashable, CustomStringConvertible {
        /// The row to update or delete exists, but its values differ from
        /// the change's old values. ``Conflict/conflictingValues`` holds the
        /// row as it is.
        case data
        /// The row to update or delete does not exist.
        case notFound
        /// The row to insert already exists (same primary key).
        /// ``Conflict/conflictingValues`` holds the row as it is.
        case conflict
        /// The change breaks a constraint other than the primary key
        /// (`UNIQUE`, `CHECK`, `NOT NULL`).
        case constraint
        /// Once all changes are applied, foreign keys are violated
        /// (``Conflict/foreignKeyViolationCount`` of them). Reported once,
        /// with no ``Conflict/change``.
        case foreignKey

        /// "data", "not found", "conflict", "constraint" or "foreign key".
        public var description: String {
            switch self {
            case .data: "data"
            case .notFound: "not found"
            case .conflict: "conflict"
            case .constraint: "constraint"
            case .foreignKey: "foreign key"
            }
        }

        init?(sqliteCode: CInt) {
            switch sqliteCode {
            case 1: self = .data
            case 2: self = .notFound
            case 3: self = .conflict
            case 4: self = .constraint
            case 5: self = .foreignKey
            default: return nil
            }
        }
    }

    /// What to do with a conflicting change.
    public enum ConflictAction: Sendable, Hashable {
        /// Skip the change and go on.
        case omit
        /// Apply the change anyway, over the row that is there: for
        /// ``ConflictKind/data`` and ``ConflictKind/conflict`` only (any other
        /// kind makes the apply throw).
        case replace
        /// Stop, roll back everything the apply did, and throw.
        case abort

        var sqliteCode: CInt {
            switch self {
            case .omit: 0
            case .replace: 1
            case .abort: 2
            }
        }
    }

    /// A change that can't be applied as it is, given to the conflict
    /// handler of ``Database/apply(_:onConflict:)``.
    public struct Conflict: Sendable {
        /// Why the change conflicts.
        public var kind: ConflictKind
        /// The change that conflicts; nil for ``ConflictKind/foreignKey``,
        /// which concerns the whole apply.
        public var change: Change?
        /// For ``ConflictKind/data`` and ``ConflictKind/conflict``: the row
        /// that is in the database, by column index; nil otherwise.
        public var conflictingValues: [DatabaseValue]?
        /// For ``ConflictKind/foreignKey``: how many foreign key constraints
        /// the applied changes violate; 0 otherwise.
        public var foreignKeyViolationCount: Int

        /// The value of a column of ``conflictingValues``, converted; nil
        /// when there is none, or when it is NULL.
        public func conflictingValue<Value: DatabaseValueConvertible>(
            at index: Int, as type: Value.Type = Value.self
        ) -> Value? {
            guard let values = conflictingValues, index < values.count else { return nil }
            return Value.fromDatabaseValue(values[index])
        }
    }

    /// How an apply resolved its conflicts, returned by
    /// ``Database/applyReturningRebase(_:onConflict:)``: rebase local changes that the
    /// other replica has not seen yet on it with ``Changeset/rebased(onto:)``.
    public struct Rebase: Sendable, Hashable {
        /// The rebase buffer of the session extension (empty when no
        /// conflict was resolved by ``ConflictAction/omit`` or
        /// ``ConflictAction/replace``).
        public let data: Data
        /// Why rebasing is not available where the changeset was applied.
        let unavailability: String?
    }

    /// This changeset, rebased on the conflict resolutions of an apply of
    /// another changeset: its changes are adjusted so that applying it after
    /// the other one gives what the apply's resolutions chose (a change that
    /// the other replica's resolution replaced is dropped or turned into an
    /// update of the resolved values).
    ///
    /// Rebasing needs SQLite 3.25.0 and `sqlite3rebaser_*`, which come with
    /// the session extension; without them this throws a ``DatabaseError``
    /// that says so.
    public func rebased(onto rebase: Rebase) throws -> Changeset {
        if let reason = rebase.unavailability {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: reason)
        }
        if rebase.data.isEmpty || isEmpty { return self }
        var rebaser: UnsafeMutableRawPointer?
        try SessionExtension.check(_strata_rebaser_create(&rebaser), "cannot create a changeset rebaser")
        defer { _strata_rebaser_delete(rebaser) }
        try SessionExtension.withBuffer(rebase.data) { size, buffer in
            try SessionExtension.check(
                _strata_rebaser_configure(rebaser, size, buffer), "the rebase data is not valid")
        }
        return try SessionExtension.withBuffer(data) { size, buffer in
            var outSize: CInt = 0
            var outBuffer: UnsafeMutableRawPointer?
            let code = _strata_rebaser_rebase(rebaser, size, buffer, &outSize, &outBuffer)
            let output = SessionExtension.takeBuffer(outBuffer, size: outSize)
            try SessionExtension.check(code, "cannot rebase the changeset: \(ResultCode(rawValue: code))")
            return Changeset(trusted: output)
        }
    }
}

/// The state of an apply that its conflict callback reaches.
private final class ApplyContext {
    let handler: (Changeset.Conflict) throws -> Changeset.ConflictAction
    var error: (any Error)?

    init(handler: @escaping (Changeset.Conflict) throws -> Changeset.ConflictAction) {
        self.handler = handler
    }

    /// Calls the handler for the conflict at the iterator, and returns its
    /// answer to SQLite. A handler that throws, or asks for an action the
    /// kind does not allow, aborts the apply.
    func resolve(kindCode: CInt, iterator: UnsafeMutableRawPointer?) -> CInt {
        let abort = Changeset.ConflictAction.abort.sqliteCode
        guard error == nil, let iterator, let kind = Changeset.ConflictKind(sqliteCode: kindCode) else { return abort }
        do {
            var conflict = Changeset.Conflict(
                kind: kind, change: nil, conflictingValues: nil, foreignKeyViolationCount: 0)
            if kind == .foreignKey {
                var count: CInt = 0
                _ = _strata_changeset_fk_conflicts(iterator, &count)
                conflict.foreignKeyViolationCount = Int(count)
            } else {
                let change = try Changeset.Change(iterator: iterator)
                conflict.change = change
                if kind == .data || kind == .conflict {
                    conflict.conflictingValues = (0..<change.columnCount).map { column in
                        var value: OpaquePointer?
                        guard _strata_changeset_conflict(iterator, CInt(column), &value) == SQLITE_OK, let value
                        else { return .null }
                        return DatabaseValue(sqliteValue: value)
                    }
                }
            }
            let action = try handler(conflict)
            if action == .replace && kind != .data && kind != .conflict {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "a \(kind) conflict can't be resolved with .replace: use .omit or .abort")
            }
            return action.sqliteCode
        } catch {
            self.error = error
            return abort
        }
    }
}

extension Database {
    /// Applies a changeset or a patchset to this database, and calls
    /// `onConflict` for each change that can't be applied as it is.
    ///
    /// ```swift
    /// try otherQueue.write { db in
    ///     try db.apply(changeset) { conflict in
    ///         conflict.kind == .data ? .replace : .omit
    ///     }
    /// }
    /// ```
    ///
    /// The changes are applied in a savepoint (in a transaction when none is
    /// open): when the handler returns ``Changeset/ConflictAction/abort`` or
    /// throws, everything the apply did is rolled back, and the apply throws
    /// (the handler's error, or `SQLITE_ABORT`). Without a handler, any
    /// conflict aborts. Changes to tables that do not exist, or that have
    /// another number of columns or another primary key, are skipped.
    /// Transaction observers and value observations of the changed tables
    /// are notified when the transaction commits. The handler runs while
    /// SQLite applies the changes: it must not use the database.
    ///
    /// To rebase local changes on the resolutions of the conflicts, use
    /// ``applyReturningRebase(_:onConflict:)``.
    public func apply(
        _ changeset: Changeset,
        onConflict: (Changeset.Conflict) throws -> Changeset.ConflictAction = { _ in .abort }
    ) throws {
        _ = try applyReturningRebase(changeset, onConflict: onConflict)
    }

    /// Applies a changeset as ``apply(_:onConflict:)`` does, and returns how
    /// its conflicts were resolved: rebase the local changes that the other
    /// replica has not seen yet on it (``Changeset/rebased(onto:)``).
    ///
    /// ```swift
    /// let rebase = try dbQueue.write { db in
    ///     try db.applyReturningRebase(remoteChanges) { _ in .omit }
    /// }
    /// let toSend = try localChanges.rebased(onto: rebase)
    /// ```
    public func applyReturningRebase(
        _ changeset: Changeset,
        onConflict: (Changeset.Conflict) throws -> Changeset.ConflictAction = { _ in .abort }
    ) throws -> Changeset.Rebase {
        try SessionExtension.require(self)
        let unavailability = SessionExtension.rebaseUnavailability(self)
        guard !changeset.isEmpty else { return Changeset.Rebase(data: Data(), unavailability: unavailability) }
        let tables = Set(changeset.lazy.map(\.table))
        var rebaseData = Data()
        try withoutActuallyEscaping(onConflict) { handler in
            let context = ApplyContext(handler: handler)
            try inSavepoint {
                guard let connection = sqliteConnection else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
                }
                let code = try SessionExtension.withBuffer(changeset.data) { size, buffer in
                    let contextPointer = Unmanaged.passUnretained(context).toOpaque()
                    let callback: _strata_session_conflict = { context, kind, iterator in
                        Unmanaged<ApplyContext>.fromOpaque(context!).takeUnretainedValue()
                            .resolve(kindCode: kind, iterator: iterator)
                    }
                    if unavailability == nil {
                        var rebaseBuffer: UnsafeMutableRawPointer?
                        var rebaseSize: CInt = 0
                        let code = _strata_changeset_apply_v2(
                            connection, size, buffer, nil, callback, contextPointer, &rebaseBuffer, &rebaseSize, 0)
                        rebaseData = SessionExtension.takeBuffer(rebaseBuffer, size: rebaseSize)
                        return code
                    }
                    return _strata_changeset_apply(connection, size, buffer, nil, callback, contextPointer)
                }
                withExtendedLifetime(context) {}
                if let error = context.error { throw error }
                if code == SQLITE_ABORT {
                    throw DatabaseError(
                        resultCode: .SQLITE_ABORT, message: "the changeset apply was aborted on a conflict")
                }
                if code != SQLITE_OK {
                    throw DatabaseError.lastError(of: connection, resultCode: code)
                }
                // SQLite ran the changes itself: tell the observers.
                var region = DatabaseRegion()
                for table in tables.sorted() where try tableExists(table) {
                    region.formUnion(DatabaseRegion(table: table))
                }
                try notifyChanges(in: region)
                return .commit
            }
        }
        return Changeset.Rebase(data: rebaseData, unavailability: unavailability)
    }
}
