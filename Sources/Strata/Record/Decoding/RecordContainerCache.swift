/// The keyed container of the last top-level `Decodable` record decoded
/// from a row, reused for the next records of a cursor, which decode from
/// the same row: creating a container costs type metadata lookups and an
/// allocation per record.
struct RecordContainerCache {
    let keyType: ObjectIdentifier
    let recordType: ObjectIdentifier
    /// A ``CachedRecordContainer`` of `keyType`.
    let cachedContainer: AnyObject
}

/// Gives back a container. A closure, because a closure carries the type
/// metadata of its result: copying a stored `KeyedDecodingContainer<Key>`
/// (a type of unknown size) would look the metadata up at each record.
final class CachedRecordContainer<Key: CodingKey> {
    let container: () -> KeyedDecodingContainer<Key>

    init(_ container: KeyedDecodingContainer<Key>) {
        self.container = { container }
    }
}

extension Row {
    /// The keyed container of a top-level record with the default column
    /// decoding strategy.
    func recordContainer<Key: CodingKey, Record: FetchableRecord>(
        keyedBy type: Key.Type, for recordType: Record.Type
    ) -> KeyedDecodingContainer<Key> {
        if let cache = recordContainerCache, cache.keyType == ObjectIdentifier(Key.self),
            cache.recordType == ObjectIdentifier(Record.self)
        {
            // Unchecked cast: the key type tells the type of the cached container.
            return unsafeDowncast(cache.cachedContainer, to: CachedRecordContainer<Key>.self).container()
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
        recordContainerCache = RecordContainerCache(
            keyType: ObjectIdentifier(Key.self), recordType: ObjectIdentifier(Record.self),
            cachedContainer: CachedRecordContainer(container))
        return container
    }
}
