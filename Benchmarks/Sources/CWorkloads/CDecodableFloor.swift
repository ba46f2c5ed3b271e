// The wall-clock floor of `Decodable` records (issue 34 part 3): the C
// record fetch, with each record made by its synthesized `init(from:)` from
// the smallest decoder that can read it: each value is the next column of
// the current row, with no check of its key. What Swift's `Decodable`
// machinery costs any library, without a library's own work.

import StrataSQLite

/// A record of table `t` whose `init(from:)` the compiler synthesizes.
struct DecodableCItem: Decodable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// Why the floor's decoder stopped: it only reads integers, in order.
struct ColumnDecoderError: Error {}

/// Reads each decoded integer from the next column of a statement's
/// current row. Its keyed container is made once and handed out again for
/// the same key type, as a library that keeps its decoder would. The code
/// that keeps it repeats `BindingEncoder`'s: a helper generic over the
/// container's type, shared by both, cost each floor 128 instructions a
/// record more (type metadata at each call), which a floor must not pay.
final class ColumnDecoder: Decoder {
    let statement: OpaquePointer
    var nextColumn: Int32 = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private var containerKeyType: ObjectIdentifier?
    private var containerBox: AnyObject?

    init(statement: OpaquePointer) {
        self.statement = statement
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if containerKeyType == ObjectIdentifier(Key.self), let containerBox {
            // Unchecked: the key type tells the type of the box.
            return Unmanaged<KeptDecodingContainer<Key>>.fromOpaque(
                Unmanaged.passUnretained(containerBox).toOpaque()
            )._withUnsafeGuaranteedRef { $0.container() }
        }
        let made = KeyedDecodingContainer(ColumnContainer<Key>(decoder: self))
        containerKeyType = ObjectIdentifier(Key.self)
        containerBox = KeptDecodingContainer(made)
        return made
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ColumnDecoderError() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw ColumnDecoderError() }

    /// The integer of the next column.
    func next() -> Int {
        defer { nextColumn &+= 1 }
        return Int(sqlite3_column_int64(statement, nextColumn))
    }
}

/// A keyed container kept by `ColumnDecoder`, behind a closure made in a
/// protocol extension (see `KeptContainer`).
final class KeptDecodingContainer<Key: CodingKey> {
    let container: () -> KeyedDecodingContainer<Key>
    init(_ container: KeyedDecodingContainer<Key>) { self.container = container.closureReturningSelf() }
}

extension KeyedDecodingContainer: ClosureReturningSelf {}

/// The keyed container of `ColumnDecoder`: integers are read in order,
/// other values are refused (the floor's records only hold integers).
struct ColumnContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ColumnDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { decoder.next() }
    func decodeNil(forKey key: Key) throws -> Bool { throw ColumnDecoderError() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw ColumnDecoderError() }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw ColumnDecoderError()
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ColumnDecoderError()
    }
    func superDecoder() throws -> any Decoder { throw ColumnDecoderError() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ColumnDecoderError() }
}

extension CReads {
    /// `fetchRecords`, each record made by its synthesized `init(from:)`
    /// through `ColumnDecoder`.
    public func fetchRecordsWithDecodableCosts() throws -> Int {
        let stmt = try connection.prepare("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM t")
        defer { sqlite3_finalize(stmt) }
        let decoder = ColumnDecoder(statement: stmt)
        var items: [DecodableCItem] = []
        while true {
            let code = sqlite3_step(stmt)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { try connection.check(code); break }
            decoder.nextColumn = 0
            items.append(try DecodableCItem(from: decoder))
        }
        return items.count
    }
}
