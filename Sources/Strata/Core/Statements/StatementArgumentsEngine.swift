// The engine behind `StatementArguments`: named pairs, and the literals of
// plain values (nil, Int, Int64, Double, String) kept as given and read in
// place, straight from the layout of their existential containers, so that
// an insert neither copies existentials nor builds an array of
// `DatabaseValue`. The public type and its API are in StatementArguments.swift;
// the memory layouts the literals are read with, in LiteralMemoryLayouts.swift.

import Foundation

/// A named value of statement arguments.
///
/// A struct rather than a tuple: arrays of tuples are destroyed by the
/// generic value witnesses of tuples, a tenth of the cost of an insert.
struct NamedArgument: Sendable {
    /// The parameter name, without its prefix.
    var name: String
    var value: DatabaseValue
}

extension StatementArguments {
    /// Converts values into a preallocated array, reading each optional
    /// existential in place (see `databaseValue(at:)`).
    ///
    /// `reserveCapacity` and `append` allocate through specialized code:
    /// `init(unsafeUninitializedCapacity:)` calls an unspecialized function
    /// of the standard library that looks up the array type metadata, a
    /// tenth of the cost of an insert.
    static func databaseValues(_ elements: [(any DatabaseValueConvertible)?]) -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(elements.count)
        elements.withUnsafeBufferPointer { source in
            guard let sourceStart = source.baseAddress else { return }
            for i in 0..<source.count {
                values.append(databaseValue(at: sourceStart + i))
            }
        }
        return values
    }

    /// The database value of an optional existential, read in place.
    ///
    /// Copying `(any DatabaseValueConvertible)?` goes through the value
    /// witnesses of the existential and of the wrapped type, and costed more
    /// than the conversion itself. The common argument types are recognized
    /// by their type metadata, which the existential container stores after
    /// its three words of inline storage, where these types are stored.
    @inline(__always)
    static func databaseValue(at element: UnsafePointer<(any DatabaseValueConvertible)?>) -> DatabaseValue {
        if ExistentialLayout.isVerified {
            let layout = ExistentialLayout()
            let raw = UnsafeRawPointer(element)
            let type = raw.load(fromByteOffset: ExistentialLayout.typeOffset, as: UInt.self)
            if type == 0 { return .null }
            if type == layout.int {
                return DatabaseValue(storage: .int64(Int64(raw.load(as: Int.self))))
            }
            if type == layout.int64 {
                return DatabaseValue(storage: .int64(raw.load(as: Int64.self)))
            }
            if type == layout.double {
                return DatabaseValue(storage: .double(raw.load(as: Double.self)))
            }
            if type == layout.string {
                return DatabaseValue(storage: .string(raw.assumingMemoryBound(to: String.self).pointee))
            }
        }
        return element.pointee?.databaseValue ?? .null
    }
}

/// The values of literals are kept as given when all of them are plain
/// values: nil, Int, Int64, Double or String. These values are immutable,
/// sendable, and their database value never changes: converting them when
/// they are bound, rather than when the literal is built, changes nothing
/// but the cost of an insert, which no longer builds, fills and destroys an
/// array of `DatabaseValue`.
enum PlainValues {
    /// What `areAll` found.
    enum Check {
        /// A value is not a plain value.
        case notPlain
        /// Plain values, none of them a string: destroying them is a no-op.
        case plainWithoutStrings
        /// Plain values, some of them strings.
        case plainWithStrings
    }

    /// Whether all values of a buffer of literal elements are plain values,
    /// the optional existential of each element being at `offset`, and
    /// whether some are strings.
    ///
    /// With `nameBits`, each element starts with a name (a `String`), and
    /// the second words of the names are and-ed into `nameBits` (see
    /// `ImmortalStrings.isMarkedImmortal`), in the same pass.
    @inline(__always)
    static func areAll(
        _ start: UnsafeRawPointer?, count: Int, stride: Int, offset: Int,
        nameBits: UnsafeMutablePointer<UInt64>? = nil
    ) -> Check {
        guard ExistentialLayout.isVerified else { return .notPlain }
        let layout = ExistentialLayout()
        guard let start else { return .plainWithoutStrings }
        var names = UInt64.max
        // Int first, then nil, each tested alone, as the likely paths:
        // written as one condition, the five comparisons were compiled
        // without branches, all five for each value (20 to 24 instructions a
        // value instead of 7).
        var hasStrings = false
        var type = start + offset + ExistentialLayout.typeOffset
        let end = type + count * stride
        defer { nameBits?.pointee = names }
        while type < end {
            let metadata = type.load(as: UInt.self)
            if nameBits != nil {
                names &= (type - offset - ExistentialLayout.typeOffset).load(
                    fromByteOffset: MemoryLayout<UInt64>.size, as: UInt64.self)
            }
            type += stride
            if _fastPath(metadata == layout.int) { continue }
            if _fastPath(metadata == 0) { continue }
            if metadata == layout.string {
                hasStrings = true
            } else if metadata != layout.int64 && metadata != layout.double {
                return .notPlain
            }
        }
        return hasStrings ? .plainWithStrings : .plainWithoutStrings
    }

    /// Destroys the plain value (see `areAll`) of an optional existential
    /// in place: only a string needs destroying. The memory is left as is,
    /// for the caller to forget (see `LiteralStorage`).
    /// `stringType` is `ExistentialLayout().string`, read once by the
    /// caller's loop.
    @inline(__always)
    static func destroy(
        _ element: UnsafeMutableRawPointer, stringType: UInt, skipsImmortal: @autoclosure () -> Bool
    ) {
        let type = element.load(fromByteOffset: ExistentialLayout.typeOffset, as: UInt.self)
        if type == stringType {
            ImmortalStrings.destroy(element, skipsImmortal: skipsImmortal())
        }
    }

    /// Binds a plain value (see `areAll`) and returns the SQLite result code.
    ///
    /// `layout` is `ExistentialLayout()`, made once by the caller's loop.
    /// `Int` values are bound here; other values by `bindNonInteger`, out
    /// of line: inlined, the string case made the callers' loops keep their
    /// variables on the stack, and twice as long (issue 34).
    @inline(__always)
    static func bind(
        _ element: UnsafeRawPointer, to sqliteStatement: SQLiteStatement, at index: CInt,
        layout: ExistentialLayout
    ) -> CInt {
        let type = element.load(fromByteOffset: ExistentialLayout.typeOffset, as: UInt.self)
        // One comparison: `type == int || type == int64` was compiled
        // without branches, both tests for each value.
        if _fastPath(type == layout.int) {
            return sqlite3_bind_int64(sqliteStatement, index, element.load(as: Int64.self))
        }
        return bindNonInteger(element, type: type, to: sqliteStatement, at: index, layout: layout)
    }

    /// `bind` for a plain value that is not an `Int`: an `Int64`, a double,
    /// a string, or nil.
    @inline(never)
    static func bindNonInteger(
        _ element: UnsafeRawPointer, type: UInt, to sqliteStatement: SQLiteStatement, at index: CInt,
        layout: ExistentialLayout
    ) -> CInt {
        if type == layout.int64 {
            return sqlite3_bind_int64(sqliteStatement, index, element.load(as: Int64.self))
        }
        if type == layout.double {
            return element.load(as: Double.self).bind(to: sqliteStatement, at: index)
        }
        if type == layout.string {
            return element.assumingMemoryBound(to: String.self).pointee.bind(to: sqliteStatement, at: index)
        }
        return sqlite3_bind_null(sqliteStatement, index)
    }
}

/// The elements of an array literal of plain values (see `PlainValues`).
///
/// Unchecked sendable: it only holds plain values, which are sendable.
struct PositionalLiteral: @unchecked Sendable {
    private(set) var elements: [(any DatabaseValueConvertible)?]

    /// Whether some elements may be strings; false once `checkPlainValues()`
    /// found none, so that destroying the elements has nothing to do.
    private var mayHoldStrings = true

    /// The elements of a literal; only kept as a literal when
    /// `checkPlainValues()` returns true.
    init(_ elements: consuming [(any DatabaseValueConvertible)?]) {
        self.elements = elements
    }

    /// Whether all elements are plain values (and notes whether some are
    /// strings).
    @inline(__always)
    mutating func checkPlainValues() -> Bool {
        let check = elements.withUnsafeBufferPointer { buffer in
            PlainValues.areAll(
                UnsafeRawPointer(buffer.baseAddress), count: buffer.count,
                stride: MemoryLayout<(any DatabaseValueConvertible)?>.stride, offset: 0)
        }
        mayHoldStrings = check != .plainWithoutStrings
        return check != .notPlain
    }

    var databaseValues: [DatabaseValue] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(elements.count)
        elements.withUnsafeBufferPointer { source in
            guard let sourceStart = source.baseAddress else { return }
            for i in 0..<source.count {
                values.append(StatementArguments.databaseValue(at: sourceStart + i))
            }
        }
        return values
    }

    /// Destroys the elements when no other value shares the array (see
    /// `LiteralStorage.destroyElementsIfUnique`). The literal is then empty:
    /// only call it on arguments that are about to be discarded.
    @inline(__always)
    mutating func destroyElementsIfUnique() {
        LiteralStorage.destroyElementsIfUnique(
            &elements, valueOffset: 0, hasName: false, valuesMayBeStrings: mayHoldStrings)
    }

    /// Binds the first `count` values to the first parameters, and returns
    /// the first SQLite result code that is not SQLITE_OK, or SQLITE_OK.
    func bind(to sqliteStatement: SQLiteStatement, count: Int) -> CInt {
        precondition(count <= elements.count)
        let layout = ExistentialLayout()
        return elements.withUnsafeBufferPointer { buffer -> CInt in
            guard let start = buffer.baseAddress else { return SQLITE_OK }
            // Wrapping arithmetic on a pointer and an index: bounded by the
            // count, checked above.
            var element = UnsafeRawPointer(start)
            var index: CInt = 1
            let end = CInt(truncatingIfNeeded: count) &+ 1
            while index < end {
                let code = PlainValues.bind(element, to: sqliteStatement, at: index, layout: layout)
                if _slowPath(code != SQLITE_OK) { return code }
                element += MemoryLayout<(any DatabaseValueConvertible)?>.stride
                index &+= 1
            }
            return SQLITE_OK
        }
    }
}

/// The elements of a dictionary literal of plain values (see `PlainValues`).
///
/// Unchecked sendable: it only holds plain values, which are sendable.
struct NamedLiteral: @unchecked Sendable {
    typealias Element = (String, (any DatabaseValueConvertible)?)
    private(set) var elements: [Element]

    /// The offset of the value in an element: tuples are laid out like C structs.
    static let valueOffset: Int = {
        let alignment = MemoryLayout<(any DatabaseValueConvertible)?>.alignment
        return (MemoryLayout<String>.size + alignment - 1) / alignment * alignment
    }()

    /// The elements of a literal; only kept as a literal when
    /// `checkPlainValues()` returns true.
    init(_ elements: consuming [Element]) {
        self.elements = elements
    }

    /// Whether destroying the elements has work to do: false once
    /// `checkPlainValues()` found immortal names (the literals of the
    /// program) and no string value, so that the destruction only empties
    /// the array (issue 34: 16 instructions an element less).
    private(set) var needsDestroying = true

    /// Whether all values are plain values (and notes whether destroying
    /// the elements has work to do).
    mutating func checkPlainValues() -> Bool {
        var nameBits = UInt64.max
        let check = elements.withUnsafeBufferPointer { buffer in
            PlainValues.areAll(
                UnsafeRawPointer(buffer.baseAddress), count: buffer.count, stride: MemoryLayout<Element>.stride,
                offset: Self.valueOffset, nameBits: &nameBits)
        }
        if check == .plainWithoutStrings && nameBits >> 63 == 1 && ImmortalStrings.isVerified {
            needsDestroying = false
        }
        return check != .notPlain
    }

    var namedArguments: [NamedArgument] { Self.namedArguments(elements) }

    /// Destroys the elements when no other value shares the array (see
    /// `LiteralStorage.destroyElementsIfUnique`). The literal is then empty:
    /// only call it on arguments that are about to be discarded.
    mutating func destroyElementsIfUnique() {
        LiteralStorage.destroyElementsIfUnique(
            &elements, valueOffset: Self.valueOffset, hasName: needsDestroying, valuesMayBeStrings: needsDestroying)
    }

    /// Converts literal elements, reading them in place: copying the tuples
    /// went through the generic value witnesses of tuples, most of the cost
    /// of an insert.
    static func namedArguments(_ elements: [Element]) -> [NamedArgument] {
        var pairs: [NamedArgument] = []
        pairs.reserveCapacity(elements.count)
        elements.withUnsafeBufferPointer { source in
            guard let sourceStart = source.baseAddress else { return }
            let raw = UnsafeRawPointer(sourceStart)
            for i in 0..<source.count {
                let element = raw + i * MemoryLayout<Element>.stride
                let name = element.assumingMemoryBound(to: String.self).pointee
                let value = StatementArguments.databaseValue(
                    at: (element + valueOffset).assumingMemoryBound(to: (any DatabaseValueConvertible)?.self))
                pairs.append(NamedArgument(name: name, value: value))
            }
        }
        return pairs
    }

    /// The value of the first element with that name.
    func namedValue(_ name: String) -> DatabaseValue? {
        elements.withUnsafeBufferPointer { source -> DatabaseValue? in
            guard let sourceStart = source.baseAddress else { return nil }
            let raw = UnsafeRawPointer(sourceStart)
            for i in 0..<source.count {
                let element = raw + i * MemoryLayout<Element>.stride
                if element.assumingMemoryBound(to: String.self).pointee == name {
                    return StatementArguments.databaseValue(
                        at: (element + Self.valueOffset).assumingMemoryBound(
                            to: (any DatabaseValueConvertible)?.self))
                }
            }
            return nil
        }
    }
}

/// The release of the arrays of literals.
///
/// The last release of an array runs the standard library's generic
/// destruction of its elements: for each element, the value witnesses of
/// `Optional`, of the existential and of the wrapped type (and of the tuple
/// and `String`, for named values), found through type metadata. For the
/// literal of one insert of 10 values that is about 800 instructions
/// (positional) and 1,400 (named): a fifth to a third of what Strata adds
/// to SQLite's own work for the insert. The standard library's ways of
/// emptying an array in place (`removeAll(keepingCapacity:)`, `removeLast`)
/// cost as much or more. Since the elements of these literals are plain
/// values, the statement destroys them itself (a string needs a release,
/// the other values nothing) and sets the array's count to zero, so that
/// its release has nothing left to destroy.
enum LiteralStorage {
    /// Destroys the elements of `array` and leaves it empty, keeping its
    /// storage, when `array` holds the only reference to that storage.
    /// Otherwise does nothing: another value still reads the elements.
    ///
    /// The optional existential of each element, at `valueOffset`, must
    /// hold a plain value (see `PlainValues`). With `hasName`, each element
    /// starts with a `String` (the name of a named value). Without
    /// `hasName` nor `valuesMayBeStrings`, no element needs destroying.
    @inline(__always)
    static func destroyElementsIfUnique<Element>(
        _ array: inout [Element], valueOffset: Int, hasName: Bool, valuesMayBeStrings: Bool
    ) {
        guard !array.isEmpty, MemoryLayout<[Element]>.size == MemoryLayout<UnsafeRawPointer>.size,
            isUniquelyReferenced(&array)
        else { return }
        let storage = unsafeBitCast(array, to: UnsafeMutableRawPointer.self)
        guard StorageLayout.matches(array, storage: storage) else { return }
        // Unique: the elements are written in place, found from the
        // storage (`withUnsafeMutableBufferPointer` would check uniqueness
        // again, and keep a path that copies the array).
        let stringType = ExistentialLayout().string
        // Read once for the names; for values, only when one is a string
        // (each read of the global costs a `swift_once` call).
        let skipsImmortalNames = hasName && ImmortalStrings.isVerified
        var element = storage + StorageLayout.elementsOffset
        // A bound rather than a count: no overflow check in the loop.
        let end = element + ((hasName || valuesMayBeStrings) ? array.count * MemoryLayout<Element>.stride : 0)
        while element < end {
            defer { element += MemoryLayout<Element>.stride }
            if hasName {
                // Released here: `deinitialize(count:)` calls the value
                // witness of `String`.
                ImmortalStrings.destroy(element, skipsImmortal: skipsImmortalNames)
            }
            PlainValues.destroy(
                element + valueOffset, stringType: stringType,
                skipsImmortal: hasName ? skipsImmortalNames : ImmortalStrings.isVerified)
        }
        // The elements are destroyed: the array forgets them.
        storage.storeBytes(of: 0, toByteOffset: StorageLayout.countOffset, as: Int.self)
    }

    /// Whether `array` holds the only reference to its storage.
    ///
    /// The standard library has no public test for arrays. Without
    /// Objective-C bridging, an array is one reference to its storage,
    /// which `isKnownUniquelyReferenced` checks; elsewhere, false.
    @inline(__always)
    private static func isUniquelyReferenced<Element>(_ array: inout [Element]) -> Bool {
        #if canImport(ObjectiveC)
            return false
        #else
            // Seen as a reference to a native class, whose test is inlined:
            // the test of `AnyObject` is a generic call of the standard library.
            return withUnsafeMutablePointer(to: &array) { pointer in
                pointer.withMemoryRebound(to: NativeStorage.self, capacity: 1) {
                    isKnownUniquelyReferenced(&$0.pointee)
                }
            }
        #endif
    }

    /// A native Swift class, as an array's storage is without Objective-C
    /// bridging: only its reference count is read, never its type.
    private final class NativeStorage {}

    /// Where an array's storage keeps its count: after the storage
    /// object's header (two words), the count, the capacity, and the
    /// elements. Checked on each array before its count is changed.
    private enum StorageLayout {
        static let countOffset = 2 * MemoryLayout<Int>.size
        static let elementsOffset = 4 * MemoryLayout<Int>.size

        /// Whether `storage`, the bits of `array` (one reference: checked by
        /// the caller), is laid out as expected: the count where expected,
        /// and the elements after it.
        @inline(__always)
        static func matches<Element>(_ array: [Element], storage: UnsafeMutableRawPointer) -> Bool {
            guard MemoryLayout<Element>.alignment <= MemoryLayout<Int>.alignment else { return false }
            return storage.load(fromByteOffset: countOffset, as: Int.self) == array.count
                && array.withUnsafeBufferPointer {
                    UnsafeRawPointer($0.baseAddress) == UnsafeRawPointer(storage + elementsOffset)
                }
        }
    }
}
