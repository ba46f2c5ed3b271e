// Where the encoder of an `Encodable` record binds its values when it
// inserts through the statement of the record type's last encoding, instead
// of storing them in a container (MutablePersistableRecord+EncodedInsert
// .swift): the statement, how many values were bound, and whether the
// encoder had to give up (a key it did not expect).

/// The binding of one record's encoded values to an INSERT statement, owned
/// by the record type's persistence facts and reused from one record to the
/// next.
///
/// Unchecked sendable: only the connection's queue uses it, while it
/// encodes a record; the encoder that points to it forgets it when the
/// record is encoded.
@usableFromInline
final class EncodedColumnBinding: @unchecked Sendable {
    /// The record type whose encoder binds (that of the inserted record).
    @exclusivity(unchecked) private(set) var recordType: ObjectIdentifier?
    /// The statement whose parameters take the values, in template order.
    @exclusivity(unchecked) private(set) var sqliteStatement: SQLiteStatement?
    /// The number of values bound so far.
    @exclusivity(unchecked) private(set) var boundCount = 0
    /// The first failed bind's code, or `SQLITE_OK`.
    @exclusivity(unchecked) private(set) var bindCode: CInt = SQLITE_OK
    /// Whether the encoder met a value it could not bind in order: the
    /// record is then inserted through a container.
    @exclusivity(unchecked) private(set) var isAbandoned = false
    /// Whether an encoder took the binding (`RecordEncoderCache`).
    @exclusivity(unchecked) var isTaken = false

    init() {}

    /// Starts the binding of the values of a record of `recordType` to a
    /// statement.
    func start(_ statement: Statement, recordType: ObjectIdentifier) {
        self.recordType = recordType
        sqliteStatement = statement.sqliteStatement
        boundCount = 0
        bindCode = SQLITE_OK
        isAbandoned = false
        isTaken = false
    }

    /// Binds the value of the template's column at `index` (0-based).
    @inline(__always)
    func bind(_ value: DatabaseValue, at index: Int) {
        guard let sqliteStatement else { return }
        let code = value.bind(to: sqliteStatement, at: CInt(truncatingIfNeeded: index &+ 1))
        if code != SQLITE_OK && bindCode == SQLITE_OK {
            bindCode = code
        }
        boundCount &+= 1
    }

    /// Gives up: the record's values do not follow the template.
    func abandon() {
        isAbandoned = true
    }
}
