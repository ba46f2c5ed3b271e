import Foundation

/// The values bound to the parameters of a statement: positional (`?`) and
/// named (`:name`, `$name`, `@name`).
///
/// ```swift
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
///                arguments: ["name": "Arthur", "score": 1000])
/// ```
public struct StatementArguments: Hashable, Sendable {
    /// Positional values, consumed in order.
    var values: [DatabaseValue]

    /// Named values, by parameter name without its prefix, with unique names.
    ///
    /// An array rather than a dictionary: building arguments from a literal
    /// then hashes nothing, and binding compares small strings.
    var namedPairs: [NamedArgument]

    /// Named values, as a dictionary.
    var namedValues: [String: DatabaseValue] {
        get { Dictionary(namedPairs.lazy.map { ($0.name, $0.value) }, uniquingKeysWith: { _, new in new }) }
        set { namedPairs = newValue.map { NamedArgument(name: $0.key, value: $0.value) } }
    }

    /// Empty arguments.
    public init() {
        values = []
        namedPairs = []
    }

    init(values: [DatabaseValue], namedValues: [String: DatabaseValue]) {
        self.values = values
        self.namedPairs = namedValues.map { NamedArgument(name: $0.key, value: $0.value) }
    }

    init(values: [DatabaseValue], namedPairs: [NamedArgument]) {
        self.values = values
        self.namedPairs = namedPairs
    }

    /// The named value for a parameter name, if any.
    func namedValue(_ name: String) -> DatabaseValue? {
        for pair in namedPairs where pair.name == name {
            return pair.value
        }
        return nil
    }

    /// Arguments are equal when they have the same positional values, and the
    /// same named values in any order.
    public static func == (lhs: StatementArguments, rhs: StatementArguments) -> Bool {
        lhs.values == rhs.values && lhs.namedValues == rhs.namedValues
    }

    /// Hashes the positional values and the named values, in any order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(namedValues)
    }

    /// Positional arguments from a sequence of database values.
    public init(_ values: some Sequence<some DatabaseValueConvertible>) {
        self.init(values: values.map(\.databaseValue), namedValues: [:])
    }

    /// Positional arguments from a sequence of optional values (nil is NULL).
    public init(_ values: some Sequence<Optional<any DatabaseValueConvertible>>) {
        self.init(values: Self.databaseValues(Array(values)), namedValues: [:])
    }

    /// Named arguments from a dictionary (nil is NULL).
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        var named: [String: DatabaseValue] = [:]
        named.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            named[key] = value?.databaseValue ?? .null
        }
        self.init(values: [], namedValues: named)
    }

    /// Named arguments from a sequence of name and value pairs; the last value wins.
    public init(_ keysAndValues: some Sequence<(String, Optional<any DatabaseValueConvertible>)>) {
        var named: [String: DatabaseValue] = [:]
        for (key, value) in keysAndValues {
            named[key] = value?.databaseValue ?? .null
        }
        self.init(values: [], namedValues: named)
    }

    /// Positional arguments from untrusted values: nil when one of them is not
    /// database-convertible.
    public init?(_ array: [Any]) {
        var values: [DatabaseValue] = []
        values.reserveCapacity(array.count)
        for element in array {
            guard let dbValue = DatabaseValue(value: element) else { return nil }
            values.append(dbValue)
        }
        self.init(values: values, namedValues: [:])
    }

    /// Named arguments from untrusted values: nil when a key is not a string or a
    /// value is not database-convertible.
    public init?(_ dictionary: [AnyHashable: Any]) {
        var named: [String: DatabaseValue] = [:]
        for (key, value) in dictionary {
            guard let key = key.base as? String, let dbValue = DatabaseValue(value: value) else { return nil }
            named[key] = dbValue
        }
        self.init(values: [], namedValues: named)
    }

    /// True when there are no positional nor named values.
    public var isEmpty: Bool {
        values.isEmpty && namedPairs.isEmpty
    }

    /// Appends positional values and inserts named values, the right side winning.
    ///
    /// - Returns: the named values that were overridden.
    public mutating func append(contentsOf arguments: StatementArguments) -> [String: DatabaseValue] {
        values.append(contentsOf: arguments.values)
        var replaced: [String: DatabaseValue] = [:]
        for pair in arguments.namedPairs {
            let key = pair.name, value = pair.value
            if let index = namedPairs.firstIndex(where: { $0.name == key }) {
                replaced[key] = namedPairs[index].value
                namedPairs[index].value = value
            } else {
                namedPairs.append(NamedArgument(name: key, value: value))
            }
        }
        return replaced
    }

    /// Concatenates positional values and merges named values.
    ///
    /// Both sides defining the same name is a programmer error: use ``&+(_:_:)``.
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result += rhs
        return result
    }

    /// Concatenates positional values and merges named values, the right side
    /// winning on a conflict.
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        _ = result.append(contentsOf: rhs)
        return result
    }

    /// Appends the right side; both sides defining the same name is a programmer error.
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        let replaced = lhs.append(contentsOf: rhs)
        precondition(
            replaced.isEmpty,
            "Conflicting named statement arguments: \(replaced.keys.sorted().joined(separator: ", ")); use &+ instead")
    }
}

/// A named value of statement arguments.
///
/// A struct rather than a tuple: arrays of tuples are destroyed by the
/// generic value witnesses of tuples, a tenth of the cost of an insert.
struct NamedArgument: Sendable {
    /// The parameter name, without its prefix.
    var name: String
    var value: DatabaseValue
}

extension StatementArguments: ExpressibleByArrayLiteral {
    /// Positional arguments: `[1, "foo", nil]`.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(values: Self.databaseValues(elements), namedValues: [:])
    }

    /// Converts values into a preallocated array, reading each optional
    /// existential in place (see `databaseValue(at:)`).
    ///
    /// `reserveCapacity` and `append` allocate through specialized code:
    /// `init(unsafeUninitializedCapacity:)` calls an unspecialized function
    /// of the standard library that looks up the array type metadata, a
    /// tenth of the cost of an insert.
    private static func databaseValues(_ elements: [(any DatabaseValueConvertible)?]) -> [DatabaseValue] {
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
        let layout = ExistentialLayout.shared
        if layout.isVerified {
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

/// The type metadata of the argument types that `databaseValue(at:)` reads
/// straight from an existential container, once checked against the actual
/// layout of `(any DatabaseValueConvertible)?`.
private struct ExistentialLayout: Sendable {
    /// The offset of the type metadata in an existential container: after
    /// three words of inline storage. nil there is `Optional.none`.
    static let typeOffset = 3 * MemoryLayout<Int>.size

    static let shared = ExistentialLayout()

    /// Type metadata addresses.
    let int: UInt
    let int64: UInt
    let double: UInt
    let string: UInt
    /// Whether values and metadata were found where expected.
    let isVerified: Bool

    private init() {
        func metadata(_ type: Any.Type) -> UInt {
            UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
        }
        int = metadata(Int.self)
        int64 = metadata(Int64.self)
        double = metadata(Double.self)
        string = metadata(String.self)
        func check(_ value: (any DatabaseValueConvertible)?, _ body: (UnsafeRawPointer, UInt) -> Bool) -> Bool {
            withUnsafePointer(to: value) { pointer in
                let raw = UnsafeRawPointer(pointer)
                return body(raw, raw.load(fromByteOffset: Self.typeOffset, as: UInt.self))
            }
        }
        let int = int, int64 = int64, double = double, string = string
        isVerified =
            MemoryLayout<(any DatabaseValueConvertible)?>.size == Self.typeOffset + 2 * MemoryLayout<Int>.size
            && check(nil) { _, type in type == 0 }
            && check(-42 as Int) { raw, type in type == int && raw.load(as: Int.self) == -42 }
            && check(-43 as Int64) { raw, type in type == int64 && raw.load(as: Int64.self) == -43 }
            && check(0.5 as Double) { raw, type in type == double && raw.load(as: Double.self) == 0.5 }
            && check("a somewhat long string, not a small one") { raw, type in
                type == string
                    && raw.assumingMemoryBound(to: String.self).pointee == "a somewhat long string, not a small one"
            }
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    /// Named arguments: `["name": "Arthur", "score": nil]`.
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        // Like dictionary literals, repeated names are a programmer error.
        assert(Set(elements.map(\.0)).count == elements.count, "Dictionary literal contains duplicate keys")
        // Reads the names and values in place: copying the tuples went through
        // the generic value witnesses of tuples, most of the cost of an insert.
        var pairs: [NamedArgument] = []
        pairs.reserveCapacity(elements.count)
        elements.withUnsafeBufferPointer { source in
            guard let sourceStart = source.baseAddress else { return }
            typealias Element = (String, (any DatabaseValueConvertible)?)
            let raw = UnsafeRawPointer(sourceStart)
            // Tuples are laid out like C structs.
            let alignment = MemoryLayout<(any DatabaseValueConvertible)?>.alignment
            let valueOffset = (MemoryLayout<String>.size + alignment - 1) / alignment * alignment
            for i in 0..<source.count {
                let element = raw + i * MemoryLayout<Element>.stride
                let name = element.assumingMemoryBound(to: String.self).pointee
                let value = Self.databaseValue(
                    at: (element + valueOffset).assumingMemoryBound(to: (any DatabaseValueConvertible)?.self))
                pairs.append(NamedArgument(name: name, value: value))
            }
        }
        self.init(values: [], namedPairs: pairs)
    }

}

extension StatementArguments: CustomStringConvertible {
    /// `[1, "foo"]`, `[name:"Arthur"]`, or both: `[1, name:"Arthur"]`.
    public var description: String {
        let positional = values.map(\.description)
        let named = namedValues.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.description)" }
        return "[" + (positional + named).joined(separator: ", ") + "]"
    }
}
