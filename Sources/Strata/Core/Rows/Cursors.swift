// The concrete cursor types returned by the cursor operators.
//
// Each one wraps a base cursor and does its work lazily, one element per call
// to `next()`. Like every cursor, they are single-pass: an element returned by
// the base is consumed, even when a closure throws.

// MARK: - AnyCursor

/// A type-erased cursor.
///
/// It forwards `next()` to a base cursor, a sequence, an iterator or a
/// closure, hiding the concrete type:
///
/// ```swift
/// let numbers = AnyCursor([1, 2, 3])
/// var n = 0
/// let countdown = AnyCursor { () -> Int? in
///     n += 1
///     return n <= 3 ? 4 - n : nil // 3, 2, 1
/// }
/// ```
public final class AnyCursor<Element>: Cursor {
    @usableFromInline
    let _next: () throws -> Element?

    /// Creates a cursor whose `next()` calls the given closure.
    ///
    /// The closure returns nil at the end, and should keep returning nil after.
    @inlinable
    public init(_ next: @escaping () throws -> Element?) {
        _next = next
    }

    /// Creates a cursor that forwards to `base`.
    @inlinable
    public init<C: Cursor>(_ base: C) where C.Element == Element {
        _next = { try base.next() }
    }

    /// Creates a cursor over the elements of an iterator.
    @inlinable
    public convenience init(iterator: some IteratorProtocol<Element>) {
        var iterator = iterator
        self.init { iterator.next() }
    }

    /// Creates a cursor over the elements of a sequence.
    @inlinable
    public convenience init(_ sequence: some Sequence<Element>) {
        self.init(iterator: sequence.makeIterator())
    }

    /// Returns the next element, or nil at the end.
    @inlinable
    public func next() throws -> Element? {
        try _next()
    }
}

// MARK: - MapCursor

/// A cursor whose elements are the elements of a base cursor, transformed.
///
/// See ``Cursor/map(_:)``.
public final class MapCursor<Base: Cursor, Element>: Cursor {
    @usableFromInline
    let base: Base
    @usableFromInline
    let transform: (Base.Element) throws -> Element

    @inlinable
    init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }

    /// Returns the next transformed element, or nil at the end.
    @inlinable
    public func next() throws -> Element? {
        guard let element = try base.next() else { return nil }
        return try transform(element)
    }

    /// Calls `body` with each remaining transformed element.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        let transform = self.transform
        try base.forEach { try body(transform($0)) }
    }
}

// MARK: - FilterCursor

/// A cursor over the elements of a base cursor that satisfy a predicate.
///
/// See ``Cursor/filter(_:)``.
public final class FilterCursor<Base: Cursor>: Cursor {
    @usableFromInline
    let base: Base
    @usableFromInline
    let isIncluded: (Base.Element) throws -> Bool

    @inlinable
    init(_ base: Base, _ isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }

    /// Returns the next element that satisfies the predicate, or nil at the end.
    @inlinable
    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) {
                return element
            }
        }
        return nil
    }

    /// Calls `body` with each remaining element that satisfies the predicate.
    @inlinable
    public func forEach(_ body: (Base.Element) throws -> Void) throws {
        let isIncluded = self.isIncluded
        try base.forEach { element in
            if try isIncluded(element) {
                try body(element)
            }
        }
    }
}

// MARK: - DropFirstCursor

/// A cursor that skips a number of leading elements of its base cursor.
///
/// See ``Cursor/dropFirst(_:)``.
public final class DropFirstCursor<Base: Cursor>: Cursor {
    @usableFromInline
    let base: Base
    @usableFromInline
    let limit: Int
    @usableFromInline
    var droppedCount = 0

    @inlinable
    init(_ base: Base, limit: Int) {
        precondition(limit >= 0, "Can't drop a negative number of elements from a cursor")
        self.base = base
        self.limit = limit
    }

    /// Returns the next element after the skipped ones, or nil at the end.
    @inlinable
    public func next() throws -> Base.Element? {
        while droppedCount < limit {
            guard try base.next() != nil else {
                // Base is exhausted: nothing left to skip.
                droppedCount = limit
                return nil
            }
            droppedCount += 1
        }
        return try base.next()
    }
}

// MARK: - DropWhileCursor

/// A cursor that skips the leading elements of its base cursor that satisfy a
/// predicate, then returns all the others.
///
/// See ``Cursor/drop(while:)``.
public final class DropWhileCursor<Base: Cursor>: Cursor {
    @usableFromInline
    let base: Base
    @usableFromInline
    let predicate: (Base.Element) throws -> Bool
    @usableFromInline
    var isDropping = true

    @inlinable
    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    /// Returns the next element once the predicate has failed, or nil at the
    /// end.
    @inlinable
    public func next() throws -> Base.Element? {
        if !isDropping {
            return try base.next()
        }
        while let element = try base.next() {
            if try !predicate(element) {
                isDropping = false
                return element
            }
        }
        return nil
    }
}

// MARK: - EnumeratedCursor

/// A cursor of pairs `(n, x)`, where `n` counts from zero and `x` is an
/// element of the base cursor.
///
/// See ``Cursor/enumerated()``.
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    @usableFromInline
    let base: Base
    @usableFromInline
    var index = 0

    @inlinable
    init(_ base: Base) {
        self.base = base
    }

    /// Returns the next element with its offset, or nil at the end.
    @inlinable
    public func next() throws -> (Int, Base.Element)? {
        guard let element = try base.next() else { return nil }
        defer { index += 1 }
        return (index, element)
    }

    /// Calls `body` with each remaining element and its offset.
    @inlinable
    public func forEach(_ body: ((Int, Base.Element)) throws -> Void) throws {
        try base.forEach { element in
            let offset = index
            index += 1
            try body((offset, element))
        }
    }
}

// MARK: - FlattenCursor

/// A cursor over the elements of the cursors returned by a base cursor, one
/// after the other.
///
/// See `Cursor/joined()` and `Cursor/flatMap(_:)`.
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
    @usableFromInline
    let base: Base
    @usableFromInline
    var inner: Base.Element?

    @inlinable
    init(_ base: Base) {
        self.base = base
    }

    /// Returns the next element of the current inner cursor, moving to the
    /// following inner cursors as they end, or nil at the end.
    @inlinable
    public func next() throws -> Base.Element.Element? {
        while true {
            if let inner, let element = try inner.next() {
                return element
            }
            guard let nextInner = try base.next() else {
                inner = nil
                return nil
            }
            inner = nextInner
        }
    }
}

// MARK: - PrefixCursor

/// A cursor over at most a number of leading elements of its base cursor.
///
/// See ``Cursor/prefix(_:)``.
public final class PrefixCursor<Base: Cursor>: Cursor {
    @usableFromInline
    let base: Base
    @usableFromInline
    let maxLength: Int
    @usableFromInline
    var count = 0

    @inlinable
    init(_ base: Base, maxLength: Int) {
        precondition(maxLength >= 0, "Can't take a prefix of negative length from a cursor")
        self.base = base
        self.maxLength = maxLength
    }

    /// Returns the next element, or nil after `maxLength` elements or at the
    /// end of the base cursor.
    @inlinable
    public func next() throws -> Base.Element? {
        guard count < maxLength else { return nil }
        count += 1
        return try base.next()
    }
}

// MARK: - PrefixWhileCursor

/// A cursor over the leading elements of its base cursor that satisfy a
/// predicate.
///
/// See ``Cursor/prefix(while:)``.
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
    @usableFromInline
    let base: Base
    @usableFromInline
    let predicate: (Base.Element) throws -> Bool
    @usableFromInline
    var isDone = false

    @inlinable
    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    /// Returns the next element if it satisfies the predicate, or nil from the
    /// first element that does not, or at the end.
    @inlinable
    public func next() throws -> Base.Element? {
        if isDone { return nil }
        if let element = try base.next(), try predicate(element) {
            return element
        }
        isDone = true
        return nil
    }
}
