// Collections built from cursors: arrays, sets and dictionaries that consume
// the remaining elements of a cursor, which may throw while iterating.

// MARK: - Collections from cursors

extension RangeReplaceableCollection {
    /// Creates a collection with the remaining elements of a cursor.
    ///
    /// ```swift
    /// let names = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try append(contentsOf: cursor)
    }

    /// Creates a collection with the remaining elements of a cursor, reserving
    /// room for at least `minimumCapacity` elements first.
    @inlinable
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init()
        reserveCapacity(minimumCapacity)
        try append(contentsOf: cursor)
    }

    /// Appends the remaining elements of a cursor.
    @inlinable
    public mutating func append(contentsOf newElements: some Cursor<Element>) throws {
        try newElements.forEach { append($0) }
    }
}

extension Set {
    /// Creates a set with the remaining elements of a cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try formUnion(cursor)
    }

    /// Creates a set with the remaining elements of a cursor, reserving room
    /// for at least `minimumCapacity` elements first.
    @inlinable
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init(minimumCapacity: minimumCapacity)
        try formUnion(cursor)
    }

    /// Returns the union of the set and the remaining elements of a cursor.
    @inlinable
    public func union(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result = self
        try result.formUnion(cursor)
        return result
    }

    /// Returns the elements of the set that are also among the remaining
    /// elements of a cursor.
    @inlinable
    public func intersection(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result = Set()
        try cursor.forEach { element in
            if let member = firstIndex(of: element) {
                result.insert(self[member])
            }
        }
        return result
    }

    /// Inserts the remaining elements of a cursor.
    @inlinable
    public mutating func formUnion(_ cursor: some Cursor<Element>) throws {
        try cursor.forEach { insert($0) }
    }

    /// Keeps only the elements of the set that are also among the remaining
    /// elements of a cursor.
    @inlinable
    public mutating func formIntersection(_ cursor: some Cursor<Element>) throws {
        self = try intersection(cursor)
    }
}

extension Dictionary {
    /// Creates a dictionary whose values are arrays of the remaining elements
    /// of a cursor, grouped by the key returned by `keyForValue`.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db)
    /// let playersByTeam = try Dictionary(grouping: players, by: \.teamId)
    /// ```
    @inlinable
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element] {
        try self.init(minimumCapacity: 0, grouping: cursor, by: keyForValue)
    }

    /// Creates a dictionary whose values are arrays of the remaining elements
    /// of a cursor, grouped by the key returned by `keyForValue`, reserving
    /// room for at least `minimumCapacity` keys first.
    @inlinable
    public init<C: Cursor>(
        minimumCapacity: Int,
        grouping cursor: C,
        by keyForValue: (C.Element) throws -> Key
    ) throws
    where Value == [C.Element] {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { value in
            try self[keyForValue(value), default: []].append(value)
        }
    }

    /// Creates a dictionary from the remaining key-value pairs of a cursor.
    ///
    /// Keys must be unique: a duplicate key is a programmer error that stops
    /// the program.
    @inlinable
    public init(uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        try self.init(minimumCapacity: 0, uniqueKeysWithValues: keysAndValues)
    }

    /// Creates a dictionary from the remaining key-value pairs of a cursor,
    /// reserving room for at least `minimumCapacity` keys first.
    ///
    /// Keys must be unique: a duplicate key is a programmer error that stops
    /// the program.
    @inlinable
    public init(minimumCapacity: Int, uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        self.init(minimumCapacity: minimumCapacity)
        try keysAndValues.forEach { key, value in
            if updateValue(value, forKey: key) != nil {
                preconditionFailure("Duplicate values for key: '\(key)'")
            }
        }
    }
}
