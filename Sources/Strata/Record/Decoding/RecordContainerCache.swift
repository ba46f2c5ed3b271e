/// The keyed container of the top-level `Decodable` records decoded from a
/// live row, reused from one record to the next: the records of a cursor
/// decode from the same row, and creating a container costs type metadata
/// lookups and an allocation per record.
///
/// A class: a live row allocates it once, and the rows that `fetchAll`
/// keeps store 8 bytes for it instead of 33 (their instance then fits a
/// smaller allocation).
final class RecordContainerCache {
    let keyType: ObjectIdentifier
    let recordType: ObjectIdentifier
    /// A ``CachedRecordContainer`` of `keyType`; nil after the first record,
    /// so that rows that decode a single record do not pay for the cache.
    var cachedContainer: AnyObject? {
        didSet { unretainedContainer = cachedContainer.map { Unmanaged.passUnretained($0) } }
    }
    /// `cachedContainer`, unretained: the cached case borrows it, without
    /// the retain and release of a strong reference (atomic operations).
    private(set) var unretainedContainer: Unmanaged<AnyObject>?

    init(keyType: ObjectIdentifier, recordType: ObjectIdentifier) {
        self.keyType = keyType
        self.recordType = recordType
    }
}

/// Gives back a container. Stored in a closure, whose size is fixed: the
/// size of `KeyedDecodingContainer<Key>` is only known at run time.
final class CachedRecordContainer<Key: CodingKey> {
    let container: () -> KeyedDecodingContainer<Key>

    init(_ container: KeyedDecodingContainer<Key>) {
        self.container = container.copyingClosure()
    }
}

/// Values that make closures returning copies of themselves.
protocol SelfCopyingClosure {}

extension SelfCopyingClosure {
    /// A closure that returns a copy of the value. Made in a protocol
    /// extension, the closure captures the type metadata of `Self`: a closure
    /// made in a context generic over `Key` would look the metadata of
    /// `KeyedDecodingContainer<Key>` up at each call (a third of the cost of
    /// a `Decodable` record of 10 columns).
    func copyingClosure() -> () -> Self {
        { self }
    }
}

extension KeyedDecodingContainer: SelfCopyingClosure {}

extension Row {
    /// The keyed container of a top-level record with the default column
    /// decoding strategy.
    func recordContainer<Key: CodingKey, Record: FetchableRecord>(
        keyedBy type: Key.Type, for recordType: Record.Type
    ) -> KeyedDecodingContainer<Key> {
        // Reads the fields one by one through the stored reference: binding
        // it to a local would cost a retain and a release.
        if recordContainerCache?.keyType == ObjectIdentifier(Key.self),
            recordContainerCache?.recordType == ObjectIdentifier(Record.self),
            let cachedContainer = recordContainerCache?.unretainedContainer
        {
            // Unchecked cast: the key type tells the type of the cached container.
            return cachedContainer._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: CachedRecordContainer<Key>.self).container()
            }
        }
        return makeRecordContainer(keyedBy: Key.self, for: Record.self)
    }

    /// Out of line: its type metadata lookups would otherwise slow down the
    /// cached case.
    @inline(never)
    private func makeRecordContainer<Key: CodingKey, Record: FetchableRecord>(
        keyedBy type: Key.Type, for recordType: Record.Type
    ) -> KeyedDecodingContainer<Key> {
        let container = KeyedDecodingContainer(RowKeyedDecodingContainer<Key, Record>(row: self))
        // Only live rows are reused for several records.
        guard liveStatement != nil else { return container }
        let keyType = ObjectIdentifier(Key.self)
        let recordType = ObjectIdentifier(Record.self)
        if let cache = recordContainerCache, cache.keyType == keyType, cache.recordType == recordType {
            recordContainerCache?.cachedContainer = CachedRecordContainer(container)
        } else {
            recordContainerCache = RecordContainerCache(keyType: keyType, recordType: recordType)
        }
        return container
    }
}
