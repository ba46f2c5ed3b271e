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

    /// Destroys the elements of literals that no other value shares, with
    /// code specialized for their type (see `LiteralStorage`): the
    /// arguments are then empty. Only for arguments about to be replaced.
    mutating func destroyUnsharedLiterals() {
        literalValues?.destroyElementsIfUnique()
        literalNamedValues?.destroyElementsIfUnique()
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
