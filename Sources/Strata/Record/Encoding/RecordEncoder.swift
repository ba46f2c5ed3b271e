import Foundation

// The Encoder of `Encodable` records: each coding key of the top-level keyed
// container is a column. Database values (String, Int, Date, UUID, enums...)
// are stored as they are, after the record's strategies for dates, UUIDs and
// data; other values (arrays, dictionaries, structs) are stored as JSON text.

extension EncodableRecord where Self: Encodable {
    /// Encodes the record with its `Encodable` implementation: coding keys
    /// are columns (see ``databaseColumnEncodingStrategy``), nested values
    /// that are not database values are stored as JSON text.
    @inlinable
    public func encode(to container: inout PersistenceContainer) throws {
        // The kept encoder is borrowed from the thread's cache, which keeps
        // it as long as the thread lives: no retain and release (atomic
        // operations) per record. Only a new encoder is owned here.
        let (acquired, isOwned) = RecordEncoder<Self>.acquireUnmanaged()
        defer {
            if isOwned { acquired.release() }
        }
        try acquired._withUnsafeGuaranteedRef { encoder in
            swap(&encoder.container, &container)
            defer {
                swap(&encoder.container, &container)
                encoder.isInUse = false
                encoder.binding = nil
            }
            try encode(to: encoder)
            if let error = encoder.deferredError {
                throw error
            }
        }
    }
}

/// Writes the keyed values of a record into a persistence container.
///
/// An encoder is reused from one record to the next of the same type on the
/// same thread (``RecordEncoderCache``), with the keyed container it last
/// gave.
@usableFromInline
final class RecordEncoder<Record: EncodableRecord>: RecordEncoderBase, Encoder {
    @exclusivity(unchecked) @usableFromInline var container = PersistenceContainer()
    /// Whether coding keys are the columns (the default strategy), looked
    /// up once per record rather than at each property.
    @exclusivity(unchecked) var usesDefaultKeys = true
    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }
    /// The error of a container that can not be stored, thrown once the
    /// record is encoded (containers are not created by throwing methods).
    @exclusivity(unchecked) @usableFromInline var deferredError: (any Error)?
    /// Where the values are bound instead of stored, while the encoder
    /// encodes a record that an INSERT binds
    /// (MutablePersistableRecord+EncodedInsert.swift); nil otherwise.
    /// Unmanaged: the record type's persistence facts own it.
    @exclusivity(unchecked) @usableFromInline var binding: Unmanaged<EncodedColumnBinding>?

    private override init() {
        super.init()
    }

    /// An encoder ready for a record: the one kept for the record type on
    /// this thread, unretained (the thread's cache keeps it), or a new one,
    /// retained (`isOwned`: the caller releases it), when the kept one is in
    /// use. The first encoder of a record type is kept for the next record.
    @usableFromInline
    static func acquireUnmanaged() -> (encoder: Unmanaged<RecordEncoder<Record>>, isOwned: Bool) {
        let recordType = ObjectIdentifier(Record.self)
        return RecordEncoderCache.withCurrent { cache -> (Unmanaged<RecordEncoder<Record>>, Bool) in
            let acquired: (Unmanaged<RecordEncoder<Record>>, Bool)
            if let kept = cache.encoder(for: recordType) {
                if kept._withUnsafeGuaranteedRef({ $0.isInUse }) {
                    // A record of the same type encoded while this one is.
                    acquired = (Unmanaged.passRetained(RecordEncoder()), true)
                } else {
                    // Unchecked: the cache keeps encoders by record type.
                    acquired = (Unmanaged<RecordEncoder<Record>>.fromOpaque(kept.toOpaque()), false)
                }
            } else {
                let encoder = RecordEncoder()
                encoder.isKept = true
                cache.keep(encoder, for: recordType)
                acquired = (Unmanaged.passUnretained(encoder), false)
            }
            // The binding that an INSERT asked for is taken by the first
            // encoder acquired after the request: the inserted record's.
            let binding = cache.takePendingBinding(for: recordType)
            acquired.0._withUnsafeGuaranteedRef { encoder in
                encoder.deferredError = nil
                encoder.isInUse = true
                encoder.binding = binding
                if case .useDefaultKeys = Record.databaseColumnEncodingStrategy {
                    encoder.usesDefaultKeys = true
                } else {
                    encoder.usesDefaultKeys = false
                }
            }
            return acquired
        }
    }

    /// The bits of the key (``CodingKeyBits``) that wrote each column of
    /// `keyTemplate` in a previous record, or 0: a key found there again
    /// writes the template's next column without asking for the key's
    /// `stringValue` nor comparing column names. Only for the default keys.
    @exclusivity(unchecked) private var keyBits: [UInt64] = []
    /// The template of the container (its `storedColumns`) that `keyBits`
    /// follows.
    @exclusivity(unchecked) private var keyTemplate: [String] = []
    /// The key type of `keyBits`.
    @exclusivity(unchecked) private var keyBitsType: ObjectIdentifier?

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if container.followsTemplate {
            followTemplate()
        }
        if cachedKeyType == ObjectIdentifier(Key.self), let cachedContainerPointer {
            // Unchecked: the key type tells the type of the cached container,
            // which `cachedContainer` keeps (borrowed, without a retain).
            return Unmanaged<CachedEncodingContainer<Key>>.fromOpaque(cachedContainerPointer)
                ._withUnsafeGuaranteedRef { $0.container() }
        }
        return makeContainer(keyedBy: Key.self)
    }

    /// Out of line: its type metadata lookups would otherwise slow down the
    /// cached case.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let container = KeyedEncodingContainer(RecordKeyedEncodingContainer<Key, Record>(encoder: self))
        if isKept {
            let cached = CachedEncodingContainer(container)
            cachedKeyType = ObjectIdentifier(Key.self)
            cachedContainer = cached
            cachedContainerPointer = Unmanaged.passUnretained(cached).toOpaque()
        }
        return container
    }

    @usableFromInline
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        deferError(
            EncodingError.invalidValue(
                Record.self,
                EncodingError.Context(
                    codingPath: [], debugDescription: "\(Record.self) must encode its columns in a keyed container")))
        return DiscardingUnkeyedContainer()
    }

    /// A single value container: the record delegates its encoding to a
    /// value (`singleValueContainer().encode(model)`), whose columns are
    /// the record's.
    @usableFromInline
    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordSingleValueEncodingContainer(encoder: self)
    }

    /// Remembers the first error of a container that can not be stored.
    func deferError(_ error: any Error) {
        if deferredError == nil {
            deferredError = error
        }
    }

    /// The error of a nested container of a column.
    func nestedContainerError(forKey key: some CodingKey) -> EncodingError {
        EncodingError.invalidValue(
            Record.self,
            EncodingError.Context(
                codingPath: [key],
                debugDescription: "\(Record.self) can not store a nested container in column \(column(key)): "
                    + "encode a Codable value for the column instead"))
    }

    @inline(__always)
    func column(_ key: some CodingKey) -> String {
        if usesDefaultKeys { return key.stringValue }
        return Record.databaseColumnEncodingStrategy.column(forKey: key)
    }

    /// Makes `keyBits` follow the template of the container, when it is not
    /// the one they follow: a record starts encoding.
    @inline(__always)
    private func followTemplate() {
        let same = keyTemplate.withUnsafeBufferPointer { kept in
            container.storedColumns.withUnsafeBufferPointer { current in
                kept.baseAddress == current.baseAddress && kept.count == current.count
            }
        }
        if !same {
            keyTemplate = container.storedColumns
            keyBits = Array(repeating: 0, count: keyTemplate.count)
        }
    }

    @inline(__always)
    func store<Key: CodingKey>(_ value: DatabaseValue, forKey key: Key) {
        if usesDefaultKeys, keyBitsType == ObjectIdentifier(Key.self), let bits = CodingKeyBits.of(key) {
            // The key that wrote the template's next column in a previous record.
            let index = container.templateCount
            if container.followsTemplate && index < keyBits.count && keyBits[index] == bits {
                if let binding {
                    // Bound to the INSERT of the template, not stored.
                    binding._withUnsafeGuaranteedRef { $0.bind(value, at: index) }
                    container.templateCount = index &+ 1
                    return
                }
                container.setNextTemplateValue(value)
                return
            }
        }
        storeUnpredicted(value, forKey: key)
    }

    /// Stops binding values to an INSERT (see `binding`): the record is
    /// encoded again into a container. The values stored from now on are
    /// not used.
    func abandonBinding() {
        guard let binding else { return }
        binding._withUnsafeGuaranteedRef { $0.abandon() }
        self.binding = nil
        // No value was stored: the template's values start again.
        container.templateCount = 0
    }

    /// Stores the value by column name, and remembers the key when it wrote
    /// the template's next column.
    @inline(never)
    private func storeUnpredicted<Key: CodingKey>(_ value: DatabaseValue, forKey key: Key) {
        abandonBinding()
        let index = container.templateCount
        let followedTemplate = container.followsTemplate
        container.setDatabaseValue(value, forColumn: column(key))
        guard usesDefaultKeys, followedTemplate, container.followsTemplate, container.templateCount == index + 1,
            index < keyBits.count, let bits = CodingKeyBits.of(key)
        else { return }
        if keyBitsType != ObjectIdentifier(Key.self) {
            // Another key type: forget the keys of the previous one.
            keyBitsType = ObjectIdentifier(Key.self)
            keyBits.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        keyBits[index] = bits
    }

    /// Stores any encodable value, applying the record strategies.
    func store<T: Encodable>(encodable value: T, forKey key: some CodingKey) throws {
        let column = column(key)
        let value = try Self.databaseValue(of: value, key: key, column: column)
        if let binding {
            let index = container.templateCount
            if index < container.storedColumns.count && container.storedColumns[index] == column {
                // The template's next column: bound, as in `store(_:forKey:)`.
                let databaseValue = value?.databaseValue ?? .null
                binding._withUnsafeGuaranteedRef { $0.bind(databaseValue, at: index) }
                container.templateCount = index &+ 1
                return
            }
            abandonBinding()
        }
        container.setValue(value, forColumn: column)
    }

    /// The stored value of an encodable value.
    static func databaseValue<T: Encodable>(of value: T, key: some CodingKey, column: String) throws
        -> (any DatabaseValueConvertible)?
    {
        if T.self == Date.self {
            return Record.databaseDateEncodingStrategy(for: column).encode(value as! Date)
        }
        if T.self == UUID.self {
            return Record.databaseUUIDEncodingStrategy(for: column).encode(value as! UUID)
        }
        if T.self == Data.self {
            return Record.databaseDataEncodingStrategy(for: column).encode(value as! Data)
        }
        if let convertible = value as? any DatabaseValueConvertible {
            // Optional dates, UUIDs and data, hidden in an optional.
            if let date = convertible as? Date {
                return Record.databaseDateEncodingStrategy(for: column).encode(date)
            }
            if let uuid = convertible as? UUID {
                return Record.databaseUUIDEncodingStrategy(for: column).encode(uuid)
            }
            if let data = convertible as? Data {
                return Record.databaseDataEncodingStrategy(for: column).encode(data)
            }
            return convertible
        }
        return try ColumnValueEncoder<Record>.databaseValue(of: value, key: key, column: column)
    }

    /// Arrays, dictionaries and structs become JSON text. Values that
    /// encode a single string, number or boolean are stored as such.
    static func jsonValue<T: Encodable>(of value: T, column: String) throws -> (any DatabaseValueConvertible)? {
        let encoder = Record.databaseJSONEncoder(for: column)
        let data = try encoder.encode(value)
        guard let first = data.first else { return nil }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return String(decoding: data, as: UTF8.self)
        case UInt8(ascii: "\""):
            return try JSONDecoder().decode(String.self, from: data)
        case UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "f"):
            return false
        case UInt8(ascii: "n"):
            return nil
        default:
            let text = String(decoding: data, as: UTF8.self)
            if let integer = Int64(text) { return integer }
            if let double = Double(text) { return double }
            return text
        }
    }
}

/// The top-level keyed container of a record: one column per key.
struct RecordKeyedEncodingContainer<Key: CodingKey, Record: EncodableRecord>: KeyedEncodingContainerProtocol {
    let encoder: RecordEncoder<Record>
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.store(.null, forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.store(value.databaseValue, forKey: key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.store(encodable: value, forKey: key)
    }

    // Nil optionals are stored as NULL, so that updates clear the column.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        encoder.store(value?.databaseValue ?? .null, forKey: key)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            try encoder.store(encodable: value, forKey: key)
        } else {
            encoder.store(.null, forKey: key)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.deferError(encoder.nestedContainerError(forKey: key))
        return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.deferError(encoder.nestedContainerError(forKey: key))
        return DiscardingUnkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

/// The single value container of a record: the encoded value writes its
/// columns in the record's container, through its `EncodableRecord`
/// encoding when it has one.
struct RecordSingleValueEncodingContainer<Record: EncodableRecord>: SingleValueEncodingContainer {
    let encoder: RecordEncoder<Record>
    var codingPath: [any CodingKey] { [] }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if value is any DatabaseValueConvertible {
            // A number or a string has no column.
            throw notAKeyedValue(value)
        }
        if let record = value as? any EncodableRecord {
            // A record writes its columns with its own persistence encoding,
            // which does not bind.
            encoder.abandonBinding()
            try record.encode(to: &encoder.container)
            return
        }
        try value.encode(to: encoder)
    }

    mutating func encodeNil() throws { throw notAKeyedValue(Any?.self) }

    /// A record can not be a plain value: it has columns.
    private func notAKeyedValue(_ value: Any) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: [], debugDescription: "\(Record.self) must encode its columns in a keyed container"))
    }
}
