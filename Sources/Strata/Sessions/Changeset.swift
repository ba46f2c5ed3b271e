import Foundation
import StrataSQLite

/// The row changes that a piece of work made to a database, as a value: store
/// it, send it, invert it, iterate it, and apply it to another copy of the
/// database.
///
/// Changesets come from SQLite's session extension. Record one with
/// ``Database/recordChanges(to:as:_:)`` or a ``ChangesetRecorder``, rebuild
/// one from bytes with ``init(data:)``, apply one with
/// ``Database/apply(_:onConflict:)``.
///
/// ```swift
/// let changeset = try dbQueue.write { db in
///     try db.recordChanges(to: ["player"]) {
///         try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
///     }
/// }
/// for change in changeset {
///     print(change.table, change.operation, change.primaryKey)
/// }
/// ```
///
/// A changeset holds, for each changed row of a table with a primary key,
/// its operation, its primary key, and its old and new values. A patchset
/// (``Format/patchset``) is the compact form: it leaves out the old values
/// that are not part of the primary key, so it detects fewer conflicts and
/// can't be inverted.
///
/// The session extension exists where SQLite is compiled with
/// `SQLITE_ENABLE_SESSION` and `SQLITE_ENABLE_PREUPDATE_HOOK`, such as
/// Debian's and Ubuntu's libsqlite3. The SQLite of Apple's systems lacks it:
/// link a custom build of SQLite there. Elsewhere, every entry point throws
/// an error that names the missing ``SQLiteFeature/sessionExtension``.
public struct Changeset: Sendable, Hashable, Sequence {
    /// The two encodings of the session extension.
    public enum Format: Sendable, Hashable {
        /// Old and new values of every changed column: detects all
        /// conflicts, and can be inverted.
        case changeset
        /// New values only, and the primary key of deleted rows: smaller,
        /// but it can't be inverted and detects fewer conflicts.
        case patchset
    }

    /// The operation that changed a row.
    public enum Operation: Sendable, Hashable, CustomStringConvertible {
        /// The row was inserted: ``Change/newValues`` holds it.
        case insert
        /// The row was updated: ``Change/oldValues`` and
        /// ``Change/newValues`` hold its primary key and changed columns.
        case update
        /// The row was deleted: ``Change/oldValues`` holds it.
        case delete

        /// "INSERT", "UPDATE" or "DELETE".
        public var description: String {
            switch self {
            case .insert: "INSERT"
            case .update: "UPDATE"
            case .delete: "DELETE"
            }
        }

        init?(sqliteCode: CInt) {
            switch sqliteCode {
            case SQLITE_INSERT: self = .insert
            case SQLITE_UPDATE: self = .update
            case SQLITE_DELETE: self = .delete
            default: return nil
            }
        }
    }

    /// The change of one row.
    ///
    /// Values are given by column index, in the order of the table's columns
    /// when the change was recorded. A nil value is one the change does not
    /// hold: the unchanged columns of an update, the columns of a patchset
    /// that are not part of the primary key.
    public struct Change: Sendable, Hashable {
        /// The name of the changed table.
        public var table: String
        /// Whether the row was inserted, updated or deleted.
        public var operation: Operation
        /// Whether the change was made by a trigger or a foreign key action
        /// rather than by a statement of the application.
        public var isIndirect: Bool
        /// The indexes of the columns of the primary key.
        public var primaryKeyIndexes: [Int]
        /// The values before the change; empty for an insert.
        public var oldValues: [DatabaseValue?]
        /// The values after the change; empty for a delete.
        public var newValues: [DatabaseValue?]

        /// The number of columns of the table.
        public var columnCount: Int { Swift.max(oldValues.count, newValues.count) }

        /// The primary key of the changed row: its old value for updates and
        /// deletes, its new value for inserts.
        public var primaryKey: [DatabaseValue] {
            let values = operation == .insert ? newValues : oldValues
            return primaryKeyIndexes.map { values[$0] ?? .null }
        }

        /// The value of a column before the change, converted; nil when the
        /// change does not hold it, or when it is NULL.
        public func oldValue<Value: DatabaseValueConvertible>(at index: Int, as type: Value.Type = Value.self)
            -> Value?
        {
            guard index < oldValues.count, let value = oldValues[index] else { return nil }
            return Value.fromDatabaseValue(value)
        }

        /// The value of a column after the change, converted; nil when the
        /// change does not hold it, or when it is NULL.
        public func newValue<Value: DatabaseValueConvertible>(at index: Int, as type: Value.Type = Value.self)
            -> Value?
        {
            guard index < newValues.count, let value = newValues[index] else { return nil }
            return Value.fromDatabaseValue(value)
        }

        /// Reads the current change of an iterator of the session extension.
        init(iterator: UnsafeMutableRawPointer) throws {
            var tableName: UnsafePointer<CChar>?
            var columnCount: CInt = 0
            var op: CInt = 0
            var indirect: CInt = 0
            try SessionExtension.check(
                _strata_changeset_op(iterator, &tableName, &columnCount, &op, &indirect),
                "cannot read a change of the changeset")
            guard let operation = Operation(sqliteCode: op) else {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown operation \(op) in changeset")
            }
            var pkFlags: UnsafeMutablePointer<UInt8>?
            var pkCount: CInt = 0
            try SessionExtension.check(
                _strata_changeset_pk(iterator, &pkFlags, &pkCount), "cannot read the primary key of a change")
            self.table = tableName.map { String(cString: $0) } ?? ""
            self.operation = operation
            self.isIndirect = indirect != 0
            self.primaryKeyIndexes = (0..<Int(pkCount)).filter { pkFlags?[$0] != 0 }
            let count = Int(columnCount)
            func values(_ function: (UnsafeMutableRawPointer, CInt, UnsafeMutablePointer<OpaquePointer?>) -> CInt)
                -> [DatabaseValue?]
            {
                (0..<count).map { column in
                    var value: OpaquePointer?
                    guard function(iterator, CInt(column), &value) == SQLITE_OK, let value else { return nil }
                    return DatabaseValue(sqliteValue: value)
                }
            }
            self.oldValues = operation == .insert ? [] : values { _strata_changeset_old($0, $1, $2) }
            self.newValues = operation == .delete ? [] : values { _strata_changeset_new($0, $1, $2) }
        }
    }

    /// The encoded changes, as the session extension writes them: store them
    /// or send them, and rebuild the changeset with ``init(data:)``.
    public let data: Data

    /// Whether the changes are a changeset or a patchset.
    public var format: Format {
        // Each table of a patchset starts with "P", of a changeset with "T".
        data.first == UInt8(ascii: "P") ? .patchset : .changeset
    }

    /// Whether there is no change.
    public var isEmpty: Bool { data.isEmpty }

    /// The changeset or patchset that `data` encodes.
    ///
    /// Throws a ``DatabaseError`` (`SQLITE_CORRUPT`) when the data is not a
    /// valid changeset or patchset, and `SQLITE_MISUSE` when the linked
    /// SQLite lacks the session extension.
    public init(data: Data) throws {
        try SessionExtension.requireLinked()
        try SessionExtension.withBuffer(data) { size, buffer in
            var iterator: UnsafeMutableRawPointer?
            try SessionExtension.check(
                _strata_changeset_start(&iterator, size, buffer), "the data is not a valid changeset")
            var code: CInt
            repeat {
                code = _strata_changeset_next(iterator)
            } while code == SQLITE_ROW
            let finalizeCode = _strata_changeset_finalize(iterator)
            if code != SQLITE_DONE || finalizeCode != SQLITE_OK {
                let failure = code != SQLITE_DONE ? code : finalizeCode
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: failure),
                    message: "the data is not a valid changeset: \(ResultCode(rawValue: failure))")
            }
        }
        self.data = data
    }

    /// A changeset from bytes the session extension wrote: no check.
    init(trusted data: Data) {
        self.data = data
    }

    /// The changeset that undoes this one: inserts become deletes, deletes
    /// inserts, and updates swap their old and new values. Applying the
    /// inverses of changesets in reverse order returns the database to where
    /// it was.
    ///
    /// Throws a ``DatabaseError`` for a patchset, which lacks the old values
    /// it would need.
    public func inverted() throws -> Changeset {
        if format == .patchset {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a patchset can't be inverted")
        }
        return try SessionExtension.withBuffer(data) { size, buffer in
            var outSize: CInt = 0
            var outBuffer: UnsafeMutableRawPointer?
            let code = _strata_changeset_invert(size, buffer, &outSize, &outBuffer)
            let output = SessionExtension.takeBuffer(outBuffer, size: outSize)
            try SessionExtension.check(code, "cannot invert the changeset")
            return Changeset(trusted: output)
        }
    }

    /// One changeset with the changes of several, in order: a row changed by
    /// several of them appears once, with its combined change (an insert
    /// followed by an update is one insert; an insert followed by a delete,
    /// nothing).
    ///
    /// All must be changesets, or all patchsets; otherwise this throws a
    /// ``DatabaseError``.
    public static func concatenating(_ changesets: some Sequence<Changeset>) throws -> Changeset {
        try SessionExtension.requireLinked()
        var group: UnsafeMutableRawPointer?
        try SessionExtension.check(_strata_changegroup_new(&group), "cannot concatenate changesets")
        defer { _strata_changegroup_delete(group) }
        var format: Format?
        for changeset in changesets where !changeset.isEmpty {
            if let format, format != changeset.format {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "cannot concatenate a changeset and a patchset")
            }
            format = changeset.format
            try SessionExtension.withBuffer(changeset.data) { size, buffer in
                try SessionExtension.check(
                    _strata_changegroup_add(group, size, buffer), "cannot concatenate changesets")
            }
        }
        var outSize: CInt = 0
        var outBuffer: UnsafeMutableRawPointer?
        let code = _strata_changegroup_output(group, &outSize, &outBuffer)
        let output = SessionExtension.takeBuffer(outBuffer, size: outSize)
        try SessionExtension.check(code, "cannot concatenate changesets")
        return Changeset(trusted: output)
    }

    /// This changeset followed by another one: see ``concatenating(_:)``.
    public func concatenated(with other: Changeset) throws -> Changeset {
        try Changeset.concatenating([self, other])
    }

    /// An iterator over the changes of a changeset, in the order the session
    /// extension wrote them: grouped by table.
    public struct Iterator: IteratorProtocol {
        private let cursor: ChangeCursor?

        init(_ data: Data) {
            cursor = try? ChangeCursor(data)
        }

        /// The next change, or nil at the end.
        public mutating func next() -> Change? {
            cursor?.next()
        }
    }

    /// Iterates the changes.
    public func makeIterator() -> Iterator {
        Iterator(data)
    }

    /// The changes, decoded: all at once.
    public var changes: [Change] { Array(self) }
}

/// An iterator of the session extension over a copy of a changeset's bytes,
/// finalized when released.
final class ChangeCursor {
    private let buffer: UnsafeMutableRawPointer?
    private var iterator: UnsafeMutableRawPointer?

    init(_ data: Data) throws {
        try SessionExtension.requireLinked()
        guard data.count <= Int(CInt.max) else {
            throw DatabaseError(resultCode: .SQLITE_TOOBIG, message: "changeset too large: \(data.count) bytes")
        }
        let buffer = data.isEmpty ? nil : UnsafeMutableRawPointer.allocate(byteCount: data.count, alignment: 8)
        if let buffer {
            data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: data.count)
        }
        self.buffer = buffer
        let code = _strata_changeset_start(&iterator, CInt(data.count), buffer)
        if code != SQLITE_OK {
            buffer?.deallocate()
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "the data is not a valid changeset")
        }
    }

    deinit {
        if let iterator { _ = _strata_changeset_finalize(iterator) }
        buffer?.deallocate()
    }

    /// The next change; nil at the end, or when the data is corrupt (checked
    /// when the changeset was made).
    func next() -> Changeset.Change? {
        guard let current = iterator else { return nil }
        guard _strata_changeset_next(current) == SQLITE_ROW, let change = try? Changeset.Change(iterator: current)
        else {
            _ = _strata_changeset_finalize(current)
            iterator = nil
            return nil
        }
        return change
    }
}
