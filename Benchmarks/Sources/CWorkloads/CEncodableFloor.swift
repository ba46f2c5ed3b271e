// The wall-clock floor of the `Encodable` insert (issue 34 part 3): the C
// record insert, with each record's values given by its synthesized
// `encode(to:)` to the smallest encoder that can bind them. What Swift's
// `Encodable` machinery costs any library, without a library's own work.

import StrataSQLite

/// A record of table `t` whose `encode(to:)` the compiler synthesizes.
struct EncodableCItem: Encodable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(_ i: Int) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9)
    }
}

/// Why the floor's encoder stopped: it only binds integers.
struct BindingEncoderError: Error {}

/// Binds each encoded integer to the next parameter of a statement. Its
/// keyed container is made once and handed out again for the same key
/// type, as a library that keeps its encoder would.
final class BindingEncoder: Encoder {
    let statement: OpaquePointer
    var nextIndex: Int32 = 1
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private var containerKeyType: ObjectIdentifier?
    private var container: AnyObject?

    init(statement: OpaquePointer) {
        self.statement = statement
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if containerKeyType == ObjectIdentifier(Key.self), let container {
            // A keyed container is one reference to its box.
            return unsafeBitCast(container, to: KeyedEncodingContainer<Key>.self)
        }
        let made = KeyedEncodingContainer(BindingContainer<Key>(encoder: self))
        containerKeyType = ObjectIdentifier(Key.self)
        container = unsafeBitCast(made, to: AnyObject.self)
        return made
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("keyed records only") }
    func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("keyed records only") }

    /// Binds `value` to the next parameter.
    func bind(_ value: Int) {
        sqlite3_bind_int64(statement, nextIndex, Int64(value))
        nextIndex &+= 1
    }
}

/// The keyed container of `BindingEncoder`: integers are bound, other values
/// are refused (the floor's records only hold integers).
struct BindingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: BindingEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.bind(value) }
    mutating func encodeNil(forKey key: Key) throws { throw BindingEncoderError() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw BindingEncoderError() }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        fatalError("keyed records only")
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        fatalError("keyed records only")
    }
    mutating func superEncoder() -> any Encoder { fatalError("keyed records only") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { fatalError("keyed records only") }
}

extension CInserts {
    /// `insertRecords`, each record's values bound by its synthesized
    /// `encode(to:)` through `BindingEncoder`.
    public func insertRecordsWithEncodableCosts(rowCount: Int) throws {
        let stmt = try connection.prepare(
            #"INSERT INTO "t" ("i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9") VALUES (?,?,?,?,?,?,?,?,?,?)"#
        )
        defer { sqlite3_finalize(stmt) }
        let encoder = BindingEncoder(statement: stmt)
        try connection.execute("BEGIN")
        for row in 0..<rowCount {
            encoder.nextIndex = 1
            try EncodableCItem(row).encode(to: encoder)
            let code = sqlite3_step(stmt)
            guard code == SQLITE_DONE else { try connection.check(code); return }
            sqlite3_reset(stmt)
        }
        try connection.execute("COMMIT")
    }
}
