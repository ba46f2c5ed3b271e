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
        get {
            switch positional {
            case .none: []
            case .converted(let values): values
            case .literal(let literal): literal.databaseValues
            }
        }
        set { positional = .converted(newValue) }
        // In place: appending one value at a time (SQL generation) must not
        // copy the array each time.
        _modify {
            var values: [DatabaseValue]
            switch positional {
            case .none: values = []
            case .converted(let converted): values = converted
            case .literal(let literal): values = literal.databaseValues
            }
            // The array's only reference is `values` while it is yielded.
            positional = .none
            defer { positional = .converted(values) }
            yield &values
        }
    }

    /// The storage of positional or named values: none, converted values,
    /// or the literal of plain values. An enum of single references, so
    /// that copying arguments (each execution keeps a copy) retains one
    /// reference per kind of value at most, and none for a kind without
    /// values: four stored properties cost four retains and releases per
    /// execution, two of them of empty arrays.
    enum Storage<Converted: Sendable, Literal: Sendable>: Sendable {
        case none
        case converted(Converted)
        case literal(Literal)
    }

    /// The positional values.
    private var positional: Storage<[DatabaseValue], PositionalLiteral>

    /// Calls `body` with the positional values of an array literal of plain
    /// values, read in place (returning the literal would copy it, a retain
    /// and a release per execution); nil when the positional values are not
    /// such a literal.
    func withLiteralValues<Result>(_ body: (borrowing PositionalLiteral) throws -> Result) rethrows -> Result? {
        guard case .literal(let literal) = positional else { return nil }
        return try body(literal)
    }

    /// Named values, by parameter name without its prefix, with unique names.
    ///
    /// An array rather than a dictionary: building arguments from a literal
    /// then hashes nothing, and binding compares small strings.
    ///
    /// Those of a literal of plain values are kept as given (see `PlainValues`),
    /// and converted when read here.
    var namedPairs: [NamedArgument] {
        get {
            switch named {
            case .none: []
            case .converted(let pairs): pairs
            case .literal(let literal): literal.namedArguments
            }
        }
        set { named = .converted(newValue) }
        _modify {
            var pairs: [NamedArgument]
            switch named {
            case .none: pairs = []
            case .converted(let converted): pairs = converted
            case .literal(let literal): pairs = literal.namedArguments
            }
            named = .none
            defer { named = .converted(pairs) }
            yield &pairs
        }
    }

    /// The named values.
    private var named: Storage<[NamedArgument], NamedLiteral>

    /// Calls `body` with the named values of a dictionary literal of plain
    /// values, read in place (returning the literal would copy it, a retain
    /// and a release per execution); nil when the named values are not such
    /// a literal.
    func withLiteralNamedValues<Result>(_ body: (borrowing NamedLiteral) throws -> Result) rethrows -> Result? {
        guard case .literal(let literal) = named else { return nil }
        return try body(literal)
    }

    /// The number of positional values.
    var valueCount: Int {
        switch positional {
        case .none: 0
        case .converted(let values): values.count
        case .literal(let literal): literal.elements.count
        }
    }

    /// The number of named values.
    var namedCount: Int {
        switch named {
        case .none: 0
        case .converted(let pairs): pairs.count
        case .literal(let literal): literal.elements.count
        }
    }

    /// Named values, as a dictionary.
    var namedValues: [String: DatabaseValue] {
        get { Dictionary(namedPairs.lazy.map { ($0.name, $0.value) }, uniquingKeysWith: { _, new in new }) }
        set { namedPairs = newValue.map { NamedArgument(name: $0.key, value: $0.value) } }
    }

    /// Empty arguments.
    public init() {
        positional = .none
        named = .none
    }

    init(values: [DatabaseValue], namedValues: [String: DatabaseValue]) {
        self.init(values: values, namedPairs: namedValues.map { NamedArgument(name: $0.key, value: $0.value) })
    }

    init(values: [DatabaseValue], namedPairs: [NamedArgument]) {
        positional = values.isEmpty ? .none : .converted(values)
        named = namedPairs.isEmpty ? .none : .converted(namedPairs)
    }

    /// Positional values from a literal.
    private init(positionalLiteral elements: consuming [(any DatabaseValueConvertible)?]) {
        named = .none
        // The literal takes the array before checking it: checking the
        // values first, then giving them to the literal, copied the array (a
        // retain and a release).
        var literal = PositionalLiteral(elements)
        if literal.checkPlainValues() {
            positional = .literal(literal)
        } else {
            let values = Self.databaseValues(literal.elements)
            positional = values.isEmpty ? .none : .converted(values)
        }
    }

    /// Destroys the elements of literals that no other value shares, with
    /// code specialized for their type (see `LiteralStorage`): the
    /// arguments are then empty. Only for arguments about to be replaced.
    @inline(__always)
    mutating func destroyUnsharedLiterals() {
        if case .literal(var literal) = positional {
            // `literal` holds the only reference of these arguments.
            positional = .none
            literal.destroyElementsIfUnique()
        }
        if case .literal(var literal) = named {
            named = .none
            literal.destroyElementsIfUnique()
        }
    }

    /// The named value for a parameter name, if any.
    func namedValue(_ name: String) -> DatabaseValue? {
        switch named {
        case .none:
            return nil
        case .literal(let literal):
            return literal.namedValue(name)
        case .converted(let pairs):
            for pair in pairs where pair.name == name {
                return pair.value
            }
            return nil
        }
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

extension StatementArguments: ExpressibleByArrayLiteral {
    /// Positional arguments: `[1, "foo", nil]`.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(positionalLiteral: elements)
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    /// Named arguments: `["name": "Arthur", "score": nil]`.
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        // Like dictionary literals, repeated names are a programmer error.
        assert(Set(elements.map(\.0)).count == elements.count, "Dictionary literal contains duplicate keys")
        // Taken, not copied: see `init(positionalLiteral:)`.
        var literal = NamedLiteral(elements)
        if literal.checkPlainValues() {
            self.init()
            named = .literal(literal)
        } else {
            self.init(values: [], namedPairs: NamedLiteral.namedArguments(literal.elements))
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
