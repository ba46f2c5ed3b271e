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
/// type, as a library that keeps its encoder would: kept in a box of its
/// key type, read back without a dynamic cast nor type metadata (looking
/// up the metadata of `KeyedEncodingContainer<Key>` cost 300 instructions
/// a record).
final class BindingEncoder: Encoder {
    let statement: OpaquePointer
    var nextIndex: Int32 = 1
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private var containerKeyType: ObjectIdentifier?
    private var containerBox: AnyObject?

    init(statement: OpaquePointer) {
        self.statement = statement
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if containerKeyType == ObjectIdentifier(Key.self), let containerBox {
            // Unchecked: the key type tells the type of the box.
            return Unmanaged<KeptContainer<Key>>.fromOpaque(Unmanaged.passUnretained(containerBox).toOpaque())
                ._withUnsafeGuaranteedRef { $0.container() }
        }
        let made = KeyedEncodingContainer(BindingContainer<Key>(encoder: self))
        containerKeyType = ObjectIdentifier(Key.self)
        containerBox = KeptContainer(made)
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

/// A keyed container kept by `BindingEncoder`, behind a closure: a stored
/// closure has the same layout whatever the key type, so that reading it
/// needs no type metadata.
final class KeptContainer<Key: CodingKey> {
    let container: () -> KeyedEncodingContainer<Key>
    init(_ container: KeyedEncodingContainer<Key>) { self.container = container.closureReturningSelf() }
}

/// Makes the closure of `KeptContainer` in a protocol extension, where it
/// captures the metadata of its type: made in a context generic over the
/// key, it looked the metadata up at each call.
protocol ClosureReturningSelf {}

extension ClosureReturningSelf {
    func closureReturningSelf() -> () -> Self { { self } }
}

extension KeyedEncodingContainer: ClosureReturningSelf {}

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
