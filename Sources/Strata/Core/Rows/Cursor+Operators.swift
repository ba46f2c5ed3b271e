// Cursor operators, modelled on the standard library's lazy sequences. The
// conversions from cursors to collections are in Cursor+Collections.swift.
//
// Operators that return a cursor are lazy: they call their closure only when
// the returned cursor is iterated. The others consume the cursor right away.
// A cursor is single-pass: consumed elements are gone.

// MARK: - Iteration

extension Cursor {
    /// Calls `body` for each remaining element.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }
}

// MARK: - Lazy operators

extension Cursor {
    /// Returns a cursor of the non-nil results of `transform` called on each
    /// element.
    ///
    /// ```swift
    /// let ints = AnyCursor(["1", "x", "3"]).compactMap { Int($0) } // 1, 3
    /// ```
    @inlinable
    public func compactMap<ElementOfResult>(
        _ transform: @escaping (Element) throws -> ElementOfResult?
    ) -> MapCursor<FilterCursor<MapCursor<Self, ElementOfResult?>>, ElementOfResult> {
        map(transform).filter { $0 != nil }.map { $0! }
    }

    /// Returns a cursor that skips the leading elements that satisfy
    /// `predicate`, and returns all the following ones.
    @inlinable
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
        DropWhileCursor(self, predicate: predicate)
    }

    /// Returns a cursor that skips the first element.
    @inlinable
    public func dropFirst() -> DropFirstCursor<Self> {
        dropFirst(1)
    }

    /// Returns a cursor that skips the first `n` elements. `n` must not be
    /// negative.
    @inlinable
    public func dropFirst(_ n: Int) -> DropFirstCursor<Self> {
        DropFirstCursor(self, limit: n)
    }

    /// Returns a cursor of pairs `(n, x)`, where `n` counts from zero and `x`
    /// is an element.
    @inlinable
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(self)
    }

    /// Returns a cursor of the elements that satisfy `isIncluded`.
    @inlinable
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded)
    }

    /// Returns a cursor of the elements of the sequences returned by
    /// `transform` for each element, one sequence after the other.
    @inlinable
    public func flatMap<SegmentOfResult: Sequence>(
        _ transform: @escaping (Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>> {
        FlattenCursor(map { try AnyCursor(transform($0)) })
    }

    /// Returns a cursor of the elements of the cursors returned by `transform`
    /// for each element, one cursor after the other.
    ///
    /// ```swift
    /// let rows = try db.allStatements(sql: "SELECT ...; SELECT ...")
    ///     .flatMap { statement in try Row.fetchCursor(statement) }
    /// ```
    @inlinable
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<Self, SegmentOfResult>> {
        FlattenCursor(map(transform))
    }

    /// Returns a cursor of the results of `transform` called on each element.
    ///
    /// ```swift
    /// let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player")
    /// let doubled = scores.map { $0 * 2 }
    /// ```
    @inlinable
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform)
    }

    /// Returns a cursor of at most the first `maxLength` elements.
    /// `maxLength` must not be negative.
    @inlinable
    public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
        PrefixCursor(self, maxLength: maxLength)
    }

    /// Returns a cursor of the leading elements that satisfy `predicate`.
    @inlinable
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
        PrefixWhileCursor(self, predicate: predicate)
    }
}

extension Cursor where Element: Cursor {
    /// Returns a cursor of the elements of each cursor element, one cursor
    /// after the other.
    @inlinable
    public func joined() -> FlattenCursor<Self> {
        FlattenCursor(self)
    }
}

extension Cursor where Element: Sequence {
    /// Returns a cursor of the elements of each sequence element, one sequence
    /// after the other.
    @inlinable
    public func joined() -> FlattenCursor<MapCursor<Self, AnyCursor<Element.Element>>> {
        FlattenCursor(map { AnyCursor($0) })
    }
}

extension Sequence {
    /// Returns a cursor of the elements of the cursors returned by `transform`
    /// for each element of the sequence, one cursor after the other.
    ///
    /// ```swift
    /// let rows = try ["SELECT 1", "SELECT 2"].flatMap { sql in
    ///     try Row.fetchCursor(db, sql: sql)
    /// }
    /// ```
    @inlinable
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Iterator.Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<AnyCursor<Iterator.Element>, SegmentOfResult>> {
        AnyCursor(self).flatMap(transform)
    }
}

// MARK: - Consuming operators

extension Cursor {
    /// Whether the cursor has no more element.
    ///
    /// Checking consumes the next element, if there is one.
    @inlinable
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }

    /// Returns whether an element satisfies `predicate`, consuming elements up
    /// to the first match.
    @inlinable
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        while let element = try next() {
            if try predicate(element) {
                return true
            }
        }
        return false
    }

    /// Returns all the elements but the last one.
    @inlinable
    public func dropLast() throws -> [Element] {
        try dropLast(1)
    }

    /// Returns all the elements but the last `n` ones. `n` must not be
    /// negative.
    @inlinable
    public func dropLast(_ n: Int) throws -> [Element] {
        precondition(n >= 0, "Can't drop a negative number of elements from a cursor")
        if n == 0 {
            return try Array(self)
        }
        // Hold back the last n elements in a ring buffer.
        var result: [Element] = []
        var ringBuffer: [Element] = []
        ringBuffer.reserveCapacity(n)
        var oldest = 0
        while let element = try next() {
            if ringBuffer.count < n {
                ringBuffer.append(element)
            } else {
                result.append(ringBuffer[oldest])
                ringBuffer[oldest] = element
                oldest = (oldest + 1) % n
            }
        }
        return result
    }

    /// Returns the first element that satisfies `predicate`, or nil, consuming
    /// elements up to the first match.
    @inlinable
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) {
                return element
            }
        }
        return nil
    }

    /// Returns the largest element according to `areInIncreasingOrder`, or nil
    /// if the cursor is empty. Among equal elements, the first one wins.
    @inlinable
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(result, element) {
                result = element
            }
        }
        return result
    }

    /// Returns the smallest element according to `areInIncreasingOrder`, or
    /// nil if the cursor is empty. Among equal elements, the first one wins.
    @inlinable
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(element, result) {
                result = element
            }
        }
        return result
    }

    /// Returns the result of combining all elements with `nextPartialResult`,
    /// starting from `initialResult`.
    @inlinable
    public func reduce<Result>(
        _ initialResult: Result,
        _ nextPartialResult: (Result, Element) throws -> Result
    ) throws -> Result {
        var result = initialResult
        while let element = try next() {
            result = try nextPartialResult(result, element)
        }
        return result
    }

    /// Returns the result of updating `initialResult` with each element in
    /// turn.
    @inlinable
    public func reduce<Result>(
        into initialResult: Result,
        _ updateAccumulatingResult: (inout Result, Element) throws -> Void
    ) throws -> Result {
        var result = initialResult
        while let element = try next() {
            try updateAccumulatingResult(&result, element)
        }
        return result
    }

    /// Returns at most the last `maxLength` elements. `maxLength` must not be
    /// negative.
    @inlinable
    public func suffix(_ maxLength: Int) throws -> [Element] {
        precondition(maxLength >= 0, "Can't take a suffix of negative length from a cursor")
        if maxLength == 0 {
            return []
        }
        // Keep the last maxLength elements in a ring buffer.
        var ringBuffer: [Element] = []
        ringBuffer.reserveCapacity(maxLength)
        var oldest = 0
        while let element = try next() {
            if ringBuffer.count < maxLength {
                ringBuffer.append(element)
            } else {
                ringBuffer[oldest] = element
                oldest = (oldest + 1) % maxLength
            }
        }
        return Array(ringBuffer[oldest...]) + ringBuffer[..<oldest]
    }
}

extension Cursor where Element: Equatable {
    /// Returns whether the cursor contains `element`, consuming elements up to
    /// the first match.
    @inlinable
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}

extension Cursor where Element: Comparable {
    /// Returns the largest element, or nil if the cursor is empty.
    @inlinable
    public func max() throws -> Element? {
        try max(by: <)
    }

    /// Returns the smallest element, or nil if the cursor is empty.
    @inlinable
    public func min() throws -> Element? {
        try min(by: <)
    }
}

extension Cursor where Element: StringProtocol {
    /// Returns the concatenation of all elements, with `separator` between
    /// them.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
    /// let list = try names.joined(separator: ", ")
    /// ```
    @inlinable
    public func joined(separator: String = "") throws -> String {
        var result = ""
        var isFirst = true
        while let element = try next() {
            if isFirst {
                isFirst = false
            } else {
                result += separator
            }
            result += element
        }
        return result
    }
}
