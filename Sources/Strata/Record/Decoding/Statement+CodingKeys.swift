/// Column lookups by coding key, for `Decodable` records.
///
/// A record decodes its properties with the same keys, in the same order, at
/// each row: the statement remembers the column of each key. Keys are
/// identified by their bits, without asking for their `stringValue`: the
/// synthesized `CodingKeys` are plain enums, and a plain value is
/// determined by its bits.
extension Statement {
    /// The index of the leftmost column named after the key (case-insensitive).
    @inline(__always)
    func index<Key: CodingKey>(ofKey key: Key) -> Int? {
        guard let bits = CodingKeyBits.of(key) else {
            return index(ofColumn: key.stringValue)
        }
        if let index = predictedIndex(ofKeyBits: bits, keyType: ObjectIdentifier(Key.self)) {
            return index
        }
        return lookUpIndex(ofKey: key, bits: bits)
    }

    /// The predicted column, when the key was last found there.
    @inline(__always)
    private func predictedIndex(ofKeyBits bits: UInt64, keyType: ObjectIdentifier) -> Int? {
        let hint = columnLookupHint
        let count = codingKeyColumns.count
        guard codingKeyType == keyType, hint < count, codingKeyColumns[hint] == bits else {
            return nil
        }
        columnLookupHint = hint + 1 == count ? 0 : hint + 1
        return hint
    }

    /// Looks the column up by name, and remembers it for the key.
    @inline(never)
    private func lookUpIndex<Key: CodingKey>(ofKey key: Key, bits: UInt64) -> Int? {
        guard let index = index(ofColumn: key.stringValue) else { return nil }
        if codingKeyType != ObjectIdentifier(Key.self) {
            // Another record type: forget the keys of the previous one.
            codingKeyType = ObjectIdentifier(Key.self)
            if codingKeyColumns.isEmpty {
                codingKeyColumns = Array(repeating: 0, count: columnCount)
            } else {
                codingKeyColumns.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            }
        }
        codingKeyColumns[index] = bits
        return index
    }
}

/// The bits of coding keys, which identify a key of a plain type (the
/// synthesized `CodingKeys` are plain enums, and a plain value is determined
/// by its bits) without asking for its `stringValue`.
enum CodingKeyBits {
    /// The bits of a plain key of up to 4 bytes, with bit 32 set so that
    /// they are never 0; nil for other keys.
    @inline(__always)
    static func of<Key: CodingKey>(_ key: Key) -> UInt64? {
        guard _isPOD(Key.self) else { return nil }
        let marker: UInt64 = 1 << 32
        switch MemoryLayout<Key>.size {
        case 0: return marker
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self)) | marker
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self)) | marker
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self)) | marker
        default: return nil
        }
    }
}
