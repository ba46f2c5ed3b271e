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
    ///
    /// Those of a literal of plain values are kept as given (see `PlainValues`),
    /// and converted when read here.
    var values: [DatabaseValue] {
        get { literalValues?.databaseValues ?? convertedValues }
        set {
            convertedValues = newValue
            literalValues = nil
        }
        // In place: appending one value at a time (SQL generation) must not
        // copy the array each time.
        _modify {
            if let literalValues {
                convertedValues = literalValues.databaseValues
                self.literalValues = nil
            }
            yield &convertedValues
        }
    }

    /// The positional values, unless `literalValues` holds them.
    private var convertedValues: [DatabaseValue]

    /// The positional values of an array literal, when all are plain values.
    private(set) var literalValues: PositionalLiteral?

    /// Named values, by parameter name without its prefix, with unique names.
    ///
    /// An array rather than a dictionary: building arguments from a literal
    /// then hashes nothing, and binding compares small strings.
    ///
    /// Those of a literal of plain values are kept as given (see `PlainValues`),
    /// and converted when read here.
    var namedPairs: [NamedArgument] {
        get { literalNamedValues?.namedArguments ?? convertedNamedPairs }
        set {
            convertedNamedPairs = newValue
            literalNamedValues = nil
        }
        _modify {
            if let literalNamedValues {
                convertedNamedPairs = literalNamedValues.namedArguments
                self.literalNamedValues = nil
            }
            yield &convertedNamedPairs
        }
    }

    /// The named values, unless `literalNamedValues` holds them.
    private var convertedNamedPairs: [NamedArgument]

    /// The named values of a dictionary literal, when all are plain values.
    private(set) var literalNamedValues: NamedLiteral?

    /// The number of positional values.
    var valueCount: Int {
        literalValues?.elements.count ?? convertedValues.count
    }

    /// The number of named values.
    var namedCount: Int {
        literalNamedValues?.elements.count ?? convertedNamedPairs.count
    }

    /// Named values, as a dictionary.
    var namedValues: [String: DatabaseValue] {
        get { Dictionary(namedPairs.lazy.map { ($0.name, $0.value) }, uniquingKeysWith: { _, new in new }) }
        set { namedPairs = newValue.map { NamedArgument(name: $0.key, value: $0.value) } }
    }

    /// Empty arguments.
    public init() {
        convertedValues = []
        convertedNamedPairs = []
    }

    init(values: [DatabaseValue], namedValues: [String: DatabaseValue]) {
        self.convertedValues = values
        self.convertedNamedPairs = namedValues.map { NamedArgument(name: $0.key, value: $0.value) }
    }

    init(values: [DatabaseValue], namedPairs: [NamedArgument]) {
        self.convertedValues = values
        self.convertedNamedPairs = namedPairs
    }

    /// Positional values from a literal.
    private init(positionalLiteral elements: [(any DatabaseValueConvertible)?]) {
        convertedNamedPairs = []
        if let literal = PositionalLiteral(elements) {
            convertedValues = []
            literalValues = literal
        } else {
            convertedValues = Self.databaseValues(elements)
        }
    }

    /// The named value for a parameter name, if any.
    func namedValue(_ name: String) -> DatabaseValue? {
        if let literalNamedValues {
            return literalNamedValues.namedValue(name)
        }
        for pair in convertedNamedPairs where pair.name == name {
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
        self.init(positionalLiteral: Array(values))
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
        valueCount == 0 && namedCount == 0
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
        self.init(positionalLiteral: elements)
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

/// The values of literals are kept as given when all of them are plain
/// values: nil, Int, Int64, Double or String. These values are immutable,
/// sendable, and their database value never changes: converting them when
/// they are bound, rather than when the literal is built, changes nothing
/// but the cost of an insert, which no longer builds, fills and destroys an
/// array of `DatabaseValue`.
enum PlainValues {
    /// Whether all values of a buffer of literal elements are plain values,
    /// the optional existential of each element being at `offset`.
    static func areAll(_ start: UnsafeRawPointer?, count: Int, stride: Int, offset: Int) -> Bool {
        let layout = ExistentialLayout.shared
        guard layout.isVerified else { return false }
        guard let start else { return true }
        for i in 0..<count {
            let type = start.load(fromByteOffset: i * stride + offset + ExistentialLayout.typeOffset, as: UInt.self)
            if type != 0 && type != layout.int && type != layout.int64 && type != layout.double
                && type != layout.string
            {
                return false
            }
        }
        return true
    }

    /// Binds a plain value (see `areAll`) and returns the SQLite result code.
    @inline(__always)
    static func bind(_ element: UnsafeRawPointer, to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        let layout = ExistentialLayout.shared
        let type = element.load(fromByteOffset: ExistentialLayout.typeOffset, as: UInt.self)
        if type == layout.int {
            return element.load(as: Int.self).bind(to: sqliteStatement, at: index)
        }
        if type == layout.int64 {
            return element.load(as: Int64.self).bind(to: sqliteStatement, at: index)
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
    let elements: [(any DatabaseValueConvertible)?]

    /// nil unless all elements are plain values.
    init?(_ elements: [(any DatabaseValueConvertible)?]) {
        let isPlain = elements.withUnsafeBufferPointer { buffer in
            PlainValues.areAll(
                UnsafeRawPointer(buffer.baseAddress), count: buffer.count,
                stride: MemoryLayout<(any DatabaseValueConvertible)?>.stride, offset: 0)
        }
        guard isPlain else { return nil }
        self.elements = elements
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

    /// Binds the first `count` values to the first parameters, and returns
    /// the first SQLite result code that is not SQLITE_OK, or SQLITE_OK.
    func bind(to sqliteStatement: SQLiteStatement, count: Int) -> CInt {
        elements.withUnsafeBufferPointer { buffer -> CInt in
            guard let start = buffer.baseAddress else { return SQLITE_OK }
            let raw = UnsafeRawPointer(start)
            for i in 0..<count {
                let code = PlainValues.bind(
                    raw + i * MemoryLayout<(any DatabaseValueConvertible)?>.stride, to: sqliteStatement,
                    at: CInt(i + 1))
                if code != SQLITE_OK { return code }
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
    let elements: [Element]

    /// The offset of the value in an element: tuples are laid out like C structs.
    static let valueOffset: Int = {
        let alignment = MemoryLayout<(any DatabaseValueConvertible)?>.alignment
        return (MemoryLayout<String>.size + alignment - 1) / alignment * alignment
    }()

    /// nil unless all values are plain values.
    init?(_ elements: [Element]) {
        let isPlain = elements.withUnsafeBufferPointer { buffer in
            PlainValues.areAll(
                UnsafeRawPointer(buffer.baseAddress), count: buffer.count, stride: MemoryLayout<Element>.stride,
                offset: Self.valueOffset)
        }
        guard isPlain else { return nil }
        self.elements = elements
    }

    var namedArguments: [NamedArgument] { Self.namedArguments(elements) }

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

extension StatementArguments: ExpressibleByDictionaryLiteral {
    /// Named arguments: `["name": "Arthur", "score": nil]`.
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        // Like dictionary literals, repeated names are a programmer error.
        assert(Set(elements.map(\.0)).count == elements.count, "Dictionary literal contains duplicate keys")
        if let literal = NamedLiteral(elements) {
            self.init()
            literalNamedValues = literal
        } else {
            self.init(values: [], namedPairs: NamedLiteral.namedArguments(elements))
        }
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
