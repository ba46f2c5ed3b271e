import Foundation

/// The encoders of `Encodable` records, kept per thread and record type for
/// the next record. A new encoder per record cost an allocation, and the
/// keyed container that the record asks for cost the type metadata of the
/// container and of the standard library's box around it, and the box's
/// allocation: about 1,000 instructions per record. A kept encoder keeps
/// its keyed container too.
final class RecordEncoderCache {
    /// The record type of the last encoder used, and the encoder.
    private var lastType: ObjectIdentifier?
    private var lastEncoder: RecordEncoderBase?
    /// The encoders of the other record types.
    private var encoders: [ObjectIdentifier: RecordEncoderBase] = [:]
    /// The binding that an INSERT asks the encoder of the next record to
    /// use (MutablePersistableRecord+EncodedInsert.swift); nil otherwise.
    @exclusivity(unchecked) private var pendingBinding: Unmanaged<EncodedColumnBinding>?

    /// Asks the encoder of the next record to bind its values.
    func requestBinding(_ binding: EncodedColumnBinding) {
        pendingBinding = Unmanaged.passUnretained(binding)
    }

    /// The requested binding, if any and for this record type, which is no
    /// longer requested. The encoder of another record type (a record whose
    /// own `encode(to:)` uses the encoding of another) does not take it.
    @inline(__always)
    func takePendingBinding(for recordType: ObjectIdentifier) -> Unmanaged<EncodedColumnBinding>? {
        guard let binding = pendingBinding,
            binding._withUnsafeGuaranteedRef({ $0.recordType == recordType })
        else { return nil }
        pendingBinding = nil
        binding._withUnsafeGuaranteedRef { $0.isTaken = true }
        return binding
    }

    /// Forgets a request that no encoder took (the record's own
    /// `encode(to:)` filled its container, or threw before encoding).
    func cancelBinding() {
        pendingBinding = nil
    }

    deinit {
        // An encoder and its cached container reference each other.
        lastEncoder?.forgetContainer()
        for encoder in encoders.values {
            encoder.forgetContainer()
        }
    }

    /// Runs `body` with the cache of the current thread, borrowed from the
    /// thread's slot without a retain and release (atomic operations, which
    /// cost more in time than in instructions).
    @inline(__always)
    static func withCurrent<T>(_ body: (RecordEncoderCache) -> T) -> T {
        let pointer = pthread_getspecific(recordEncoderCacheKey) ?? makeCurrent()
        return Unmanaged<RecordEncoderCache>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    @inline(never)
    private static func makeCurrent() -> UnsafeMutableRawPointer {
        let pointer = Unmanaged.passRetained(RecordEncoderCache()).toOpaque()
        pthread_setspecific(recordEncoderCacheKey, pointer)
        return pointer
    }

    /// The encoder kept for the record type, if any, unretained: the cache
    /// keeps it as long as the thread lives.
    @inline(__always)
    func encoder(for recordType: ObjectIdentifier) -> Unmanaged<RecordEncoderBase>? {
        if lastType == recordType, let lastEncoder {
            return Unmanaged.passUnretained(lastEncoder)
        }
        return otherEncoder(for: recordType).map { Unmanaged.passUnretained($0) }
    }

    @inline(never)
    private func otherEncoder(for recordType: ObjectIdentifier) -> RecordEncoderBase? {
        guard let encoder = encoders[recordType] else { return nil }
        if let lastType, let lastEncoder {
            encoders[lastType] = lastEncoder
        }
        encoders[recordType] = nil
        lastType = recordType
        lastEncoder = encoder
        return encoder
    }

    /// Keeps the encoder for the next record of its type.
    func keep(_ encoder: RecordEncoderBase, for recordType: ObjectIdentifier) {
        if let lastType, let lastEncoder, lastType != recordType {
            encoders[lastType] = lastEncoder
        }
        encoders[recordType] = nil
        lastType = recordType
        lastEncoder = encoder
    }
}

/// The thread-specific key of ``RecordEncoderCache/withCurrent(_:)``. The thread's
/// cache is released when the thread ends.
private let recordEncoderCacheKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
        pthread_key_create(&key) { pointer in
            Unmanaged<RecordEncoderCache>.fromOpaque(pointer).release()
        }
    #else
        pthread_key_create(&key) { pointer in
            if let pointer {
                Unmanaged<RecordEncoderCache>.fromOpaque(pointer).release()
            }
        }
    #endif
    return key
}()

/// What a ``RecordEncoderCache`` knows of the encoders it keeps, whatever
/// their record type.
@usableFromInline
class RecordEncoderBase {
    /// Whether a record is being encoded with the encoder: a kept encoder
    /// that is in use is not handed out again.
    @usableFromInline @exclusivity(unchecked) final var isInUse = false
    /// Whether the encoder is kept by a cache, and keeps its keyed container.
    final var isKept = false
    /// The key type of `cachedContainer`.
    @exclusivity(unchecked) final var cachedKeyType: ObjectIdentifier?
    /// A ``CachedEncodingContainer`` of `cachedKeyType`.
    @exclusivity(unchecked) final var cachedContainer: AnyObject?
    /// `cachedContainer`, unretained: read without a retain and release.
    @exclusivity(unchecked) final var cachedContainerPointer: UnsafeMutableRawPointer?

    @usableFromInline
    init() {}

    /// Forgets the keyed container, which references the encoder.
    final func forgetContainer() {
        cachedKeyType = nil
        cachedContainerPointer = nil
        cachedContainer = nil
    }
}

/// Gives back a keyed encoding container. Stored in a closure, as the
/// decoding side does (`CachedRecordContainer`): a copy made in a context
/// generic over `Key` would look up the container's type metadata.
final class CachedEncodingContainer<Key: CodingKey> {
    let container: () -> KeyedEncodingContainer<Key>

    init(_ container: KeyedEncodingContainer<Key>) {
        self.container = container.copyingClosure()
    }
}

extension KeyedEncodingContainer: SelfCopyingClosure {}
