// One suite, one file: the operators of the `Cursor` protocol (map,
// filter, prefix, joined, reduce...), a few lines each, side by side with
// the failing cursor they share, so that each operator's behaviour on an
// error reads next to the others'.

import Strata
import StrataTestSupport
import Testing

private struct TestError: Error, Equatable {}

/// A cursor that returns `values`, then throws `TestError` instead of ending.
private func failingCursor(_ values: [Int]) -> AnyCursor<Int> {
    var iterator = values.makeIterator()
    return AnyCursor {
        guard let value = iterator.next() else { throw TestError() }
        return value
    }
}

/// A cursor that counts how many times `next()` was called.
private final class CountingCursor: Cursor {
    private var iterator: IndexingIterator<[Int]>
    private(set) var nextCount = 0

    init(_ values: [Int]) {
        iterator = values.makeIterator()
    }

    func next() -> Int? {
        nextCount += 1
        return iterator.next()
    }
}

struct CursorTests {
    // MARK: - AnyCursor

    @Test func anyCursorFromSequence() throws {
        let cursor = AnyCursor([1, 2, 3])
        #expect(try cursor.next() == 1)
        #expect(try cursor.next() == 2)
        #expect(try cursor.next() == 3)
        #expect(try cursor.next() == nil)
        #expect(try cursor.next() == nil)
    }

    @Test func anyCursorFromIterator() throws {
        let cursor = AnyCursor(iterator: [1, 2].makeIterator())
        #expect(try Array(cursor) == [1, 2])
    }

    @Test func anyCursorFromClosure() throws {
        var n = 0
        let cursor = AnyCursor { () -> Int? in
            n += 1
            return n <= 3 ? n : nil
        }
        #expect(try Array(cursor) == [1, 2, 3])
        #expect(try cursor.next() == nil)
    }

    @Test func anyCursorFromCursor() throws {
        let base = AnyCursor([1, 2, 3])
        let cursor = AnyCursor(base.map { $0 * 2 })
        #expect(try cursor.next() == 2)
        #expect(try base.next() == 2)  // shared base
        #expect(try Array(cursor) == [6])
    }

    @Test func anyCursorRethrowsBaseError() throws {
        let cursor = AnyCursor(failingCursor([1]))
        #expect(try cursor.next() == 1)
        #expect(throws: TestError.self) { try cursor.next() }
    }

    // MARK: - forEach

    @Test func forEach() throws {
        var values: [Int] = []
        try AnyCursor([1, 2, 3]).forEach { values.append($0) }
        #expect(values == [1, 2, 3])
    }

    @Test func forEachErrors() throws {
        var values: [Int] = []
        #expect(throws: TestError.self) {
            try failingCursor([1, 2]).forEach { values.append($0) }
        }
        #expect(values == [1, 2])

        let cursor = AnyCursor([1, 2, 3])
        #expect(throws: TestError.self) {
            try cursor.forEach { if $0 == 2 { throw TestError() } }
        }
        #expect(try cursor.next() == 3)
    }

    // MARK: - map, compactMap, filter

    @Test func map() throws {
        let cursor = AnyCursor([1, 2, 3]).map { String($0) }
        #expect(try cursor.next() == "1")
        #expect(try Array(cursor) == ["2", "3"])
        #expect(try cursor.next() == nil)
    }

    @Test func mapIsLazy() throws {
        var calls = 0
        let base = CountingCursor([1, 2])
        let cursor = base.map { value -> Int in
            calls += 1
            return value
        }
        #expect(calls == 0)
        #expect(base.nextCount == 0)
        #expect(try cursor.next() == 1)
        #expect(calls == 1)
        #expect(base.nextCount == 1)
    }

    @Test func mapErrors() throws {
        let cursor = AnyCursor([1, 2, 3]).map { value -> Int in
            if value == 2 { throw TestError() }
            return value
        }
        #expect(try cursor.next() == 1)
        #expect(throws: TestError.self) { try cursor.next() }
        #expect(try cursor.next() == 3)  // single-pass: 2 is consumed

        #expect(throws: TestError.self) { try Array(failingCursor([1]).map { $0 }) }
    }

    @Test func mapForEach() throws {
        var values: [Int] = []
        try AnyCursor([1, 2]).map { $0 + 1 }.forEach { values.append($0) }
        #expect(values == [2, 3])
        #expect(throws: TestError.self) { try failingCursor([1]).map { $0 }.forEach { _ in } }
    }

    @Test func compactMap() throws {
        let cursor = AnyCursor(["1", "x", "3", "y"]).compactMap { Int($0) }
        #expect(try Array(cursor) == [1, 3])

        var calls = 0
        let lazy = AnyCursor([1]).compactMap { value -> Int? in
            calls += 1
            return value
        }
        #expect(calls == 0)
        #expect(try lazy.next() == 1)
        #expect(calls == 1)

        let throwing = AnyCursor([1]).compactMap { _ -> Int? in throw TestError() }
        #expect(throws: TestError.self) { try throwing.next() }
    }

    @Test func filter() throws {
        let cursor = AnyCursor([1, 2, 3, 4, 5]).filter { $0 % 2 == 1 }
        #expect(try cursor.next() == 1)
        #expect(try Array(cursor) == [3, 5])
    }

    @Test func filterIsLazy() throws {
        let base = CountingCursor([1, 2, 3])
        let cursor = base.filter { $0 == 2 }
        #expect(base.nextCount == 0)
        #expect(try cursor.next() == 2)
        #expect(base.nextCount == 2)
    }

    @Test func filterErrors() throws {
        let cursor = AnyCursor([1, 2, 3]).filter { value -> Bool in
            if value == 1 { throw TestError() }
            return true
        }
        #expect(throws: TestError.self) { try cursor.next() }
        #expect(try cursor.next() == 2)
        #expect(throws: TestError.self) { try failingCursor([1]).filter { _ in false }.next() }
    }

    @Test func filterForEach() throws {
        var values: [Int] = []
        try AnyCursor([1, 2, 3, 4]).filter { $0 > 2 }.forEach { values.append($0) }
        #expect(values == [3, 4])
        #expect(throws: TestError.self) {
            try AnyCursor([1]).filter { _ in throw TestError() }.forEach { _ in }
        }
    }

    // MARK: - contains, first, isEmpty

    @Test func contains() throws {
        let cursor = AnyCursor([1, 2, 3, 4])
        #expect(try cursor.contains(2))
        #expect(try cursor.next() == 3)  // consumed up to the match
        #expect(try !cursor.contains(1))
        #expect(try !AnyCursor([Int]()).contains(1))
        #expect(throws: TestError.self) { try failingCursor([1]).contains(2) }
    }

    @Test func containsWhere() throws {
        #expect(try AnyCursor([1, 2, 3]).contains { $0 > 2 })
        #expect(try !AnyCursor([1, 2, 3]).contains { $0 > 3 })
        #expect(throws: TestError.self) { try AnyCursor([1]).contains { _ in throw TestError() } }
        #expect(throws: TestError.self) { try failingCursor([1]).contains { $0 > 1 } }
    }

    @Test func firstWhere() throws {
        let cursor = AnyCursor([1, 2, 3, 4])
        #expect(try cursor.first { $0 % 2 == 0 } == 2)
        #expect(try cursor.next() == 3)
        #expect(try AnyCursor([1, 3]).first { $0 % 2 == 0 } == nil)
        #expect(throws: TestError.self) { try AnyCursor([1]).first { _ in throw TestError() } }
        #expect(throws: TestError.self) { try failingCursor([1]).first { $0 > 1 } }
    }

    @Test func isEmpty() throws {
        #expect(try AnyCursor([Int]()).isEmpty)
        let cursor = AnyCursor([1, 2])
        #expect(try !cursor.isEmpty)
        #expect(try cursor.next() == 2)  // isEmpty consumed 1
        #expect(try cursor.isEmpty)
        #expect(throws: TestError.self) { try failingCursor([]).isEmpty }
    }

    // MARK: - drop, prefix, suffix

    @Test func dropWhile() throws {
        let cursor = AnyCursor([1, 2, 3, 1]).drop { $0 < 3 }
        #expect(try Array(cursor) == [3, 1])
        #expect(try Array(AnyCursor([1, 2]).drop { _ in true }) == [])

        var calls = 0
        let lazy = AnyCursor([1, 2, 3]).drop { value in
            calls += 1
            return value < 2
        }
        #expect(calls == 0)
        #expect(try Array(lazy) == [2, 3])
        #expect(calls == 2)  // predicate stops being called once it fails

        #expect(throws: TestError.self) { try AnyCursor([1]).drop { _ in throw TestError() }.next() }
        #expect(throws: TestError.self) { try failingCursor([1]).drop { _ in true }.next() }
    }

    @Test func dropFirst() throws {
        #expect(try Array(AnyCursor([1, 2, 3]).dropFirst()) == [2, 3])
        #expect(try Array(AnyCursor([1, 2, 3]).dropFirst(2)) == [3])
        #expect(try Array(AnyCursor([1, 2, 3]).dropFirst(0)) == [1, 2, 3])
        #expect(try Array(AnyCursor([1, 2, 3]).dropFirst(5)) == [])
        #expect(try Array(AnyCursor([1, 2, 3]).dropFirst().dropFirst()) == [3])

        let base = CountingCursor([1, 2, 3])
        let cursor = base.dropFirst(2)
        #expect(base.nextCount == 0)
        #expect(try cursor.next() == 3)

        #expect(throws: TestError.self) { try failingCursor([1]).dropFirst(2).next() }
    }

    @Test func dropLast() throws {
        #expect(try AnyCursor([1, 2, 3]).dropLast() == [1, 2])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(2) == [1, 2, 3])
        #expect(try AnyCursor([1, 2, 3]).dropLast(0) == [1, 2, 3])
        #expect(try AnyCursor([1, 2, 3]).dropLast(3) == [])
        #expect(try AnyCursor([1, 2, 3]).dropLast(10) == [])
        #expect(try AnyCursor([Int]()).dropLast() == [])
        #expect(throws: TestError.self) { try failingCursor([1, 2]).dropLast() }
    }

    @Test func prefix() throws {
        #expect(try Array(AnyCursor([1, 2, 3]).prefix(2)) == [1, 2])
        #expect(try Array(AnyCursor([1, 2, 3]).prefix(0)) == [])
        #expect(try Array(AnyCursor([1, 2, 3]).prefix(5)) == [1, 2, 3])

        // The prefix does not consume more than needed.
        let base = AnyCursor([1, 2, 3])
        #expect(try Array(base.prefix(2)) == [1, 2])
        #expect(try base.next() == 3)

        #expect(throws: TestError.self) { try Array(failingCursor([1]).prefix(2)) }
        #expect(try Array(failingCursor([1, 2]).prefix(2)) == [1, 2])
    }

    @Test func prefixWhile() throws {
        let cursor = AnyCursor([1, 2, 3, 1]).prefix { $0 < 3 }
        #expect(try Array(cursor) == [1, 2])
        #expect(try cursor.next() == nil)
        #expect(try Array(AnyCursor([1, 2]).prefix { _ in true }) == [1, 2])

        var calls = 0
        let lazy = AnyCursor([1, 2]).prefix { _ in
            calls += 1
            return true
        }
        #expect(calls == 0)
        #expect(try lazy.next() == 1)
        #expect(calls == 1)

        #expect(throws: TestError.self) { try AnyCursor([1]).prefix { _ in throw TestError() }.next() }
        #expect(throws: TestError.self) { try failingCursor([1]).prefix { _ in true }.forEach { _ in } }
    }

    @Test func suffix() throws {
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(2) == [4, 5])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(3) == [3, 4, 5])
        #expect(try AnyCursor([1, 2]).suffix(5) == [1, 2])
        #expect(try AnyCursor([1, 2]).suffix(0) == [])
        #expect(try AnyCursor([Int]()).suffix(1) == [])
        #expect(throws: TestError.self) { try failingCursor([1, 2]).suffix(1) }
    }

    // MARK: - enumerated

    @Test func enumerated() throws {
        let cursor = AnyCursor(["a", "b", "c"]).enumerated()
        let first = try #require(try cursor.next())
        #expect(first.0 == 0)
        #expect(first.1 == "a")
        #expect(try Array(cursor.map { "\($0.0)\($0.1)" }) == ["1b", "2c"])
        #expect(try cursor.next() == nil)
        #expect(throws: TestError.self) { try failingCursor([]).enumerated().next() }
    }

    @Test func enumeratedForEach() throws {
        let cursor = AnyCursor(["a", "b", "c"]).enumerated()
        _ = try cursor.next()
        var values: [String] = []
        try cursor.forEach { values.append("\($0.0)\($0.1)") }
        #expect(values == ["1b", "2c"])
        #expect(throws: TestError.self) { try failingCursor([1]).enumerated().forEach { _ in } }
    }

    // MARK: - flatMap, joined

    @Test func flatMapSequence() throws {
        let cursor = AnyCursor([1, 2, 3]).flatMap { Array(repeating: $0, count: $0 - 1) }
        #expect(try Array(cursor) == [2, 3, 3])
        #expect(try cursor.next() == nil)

        var calls = 0
        let lazy = AnyCursor([1, 2]).flatMap { value -> [Int] in
            calls += 1
            return [value]
        }
        #expect(calls == 0)
        #expect(try lazy.next() == 1)
        #expect(calls == 1)

        #expect(throws: TestError.self) { try AnyCursor([1]).flatMap { _ -> [Int] in throw TestError() }.next() }
        #expect(throws: TestError.self) { try Array(failingCursor([1]).flatMap { [$0] }) }
    }

    @Test func flatMapCursor() throws {
        let cursor = AnyCursor([1, 2, 3]).flatMap { AnyCursor(Array(repeating: $0, count: $0 - 1)) }
        #expect(try Array(cursor) == [2, 3, 3])

        #expect(throws: TestError.self) {
            try AnyCursor([1]).flatMap { _ -> AnyCursor<Int> in throw TestError() }.next()
        }
        // Errors of inner cursors are propagated.
        let inner = AnyCursor([1]).flatMap { failingCursor([$0]) }
        #expect(try inner.next() == 1)
        #expect(throws: TestError.self) { try inner.next() }
    }

    @Test func sequenceFlatMap() throws {
        let cursor = [1, 2, 3].flatMap { AnyCursor(Array(repeating: $0, count: $0 - 1)) }
        #expect(try Array(cursor) == [2, 3, 3])

        var calls = 0
        let lazy = [1, 2].flatMap { value -> AnyCursor<Int> in
            calls += 1
            return AnyCursor([value])
        }
        #expect(calls == 0)
        #expect(try lazy.next() == 1)
        #expect(calls == 1)

        #expect(throws: TestError.self) { try [1].flatMap { _ -> AnyCursor<Int> in throw TestError() }.next() }
    }

    @Test func joinedCursors() throws {
        let cursor = AnyCursor([AnyCursor([1, 2]), AnyCursor([]), AnyCursor([3])]).joined()
        #expect(try Array(cursor) == [1, 2, 3])
        #expect(try cursor.next() == nil)
        #expect(throws: TestError.self) { try Array(AnyCursor([failingCursor([1])]).joined()) }
    }

    @Test func joinedSequences() throws {
        let cursor = AnyCursor([[1, 2], [], [3]]).joined()
        #expect(try Array(cursor) == [1, 2, 3])
        #expect(try cursor.next() == nil)
        #expect(throws: TestError.self) { try Array(failingCursor([1]).map { [$0] }.joined()) }
    }

    @Test func joinedSeparator() throws {
        #expect(try AnyCursor(["a", "b", "c"]).joined() == "abc")
        #expect(try AnyCursor(["a", "b", "c"]).joined(separator: ", ") == "a, b, c")
        #expect(try AnyCursor(["a"]).joined(separator: ", ") == "a")
        #expect(try AnyCursor([String]()).joined(separator: ", ") == "")
        let substrings: [Substring] = "x y".split(separator: " ")
        #expect(try AnyCursor(substrings).joined(separator: "-") == "x-y")
        #expect(throws: TestError.self) { try failingCursor([1]).map { String($0) }.joined(separator: ",") }
    }

    // MARK: - min, max, reduce

    @Test func minMax() throws {
        #expect(try AnyCursor([3, 1, 2]).min() == 1)
        #expect(try AnyCursor([3, 1, 2]).max() == 3)
        #expect(try AnyCursor([Int]()).min() == nil)
        #expect(try AnyCursor([Int]()).max() == nil)
        #expect(throws: TestError.self) { try failingCursor([1]).min() }
        #expect(throws: TestError.self) { try failingCursor([1]).max() }
    }

    @Test func minMaxBy() throws {
        let words = ["bb", "a", "cc", "d"]
        // Among equal elements, the first one wins, as in the standard library.
        #expect(try AnyCursor(words).min { $0.count < $1.count } == "a")
        #expect(try AnyCursor(words).max { $0.count < $1.count } == "bb")
        #expect(try AnyCursor([String]()).min { $0 < $1 } == nil)
        #expect(throws: TestError.self) { try AnyCursor([1, 2]).min { _, _ in throw TestError() } }
        #expect(throws: TestError.self) { try AnyCursor([1, 2]).max { _, _ in throw TestError() } }
    }

    @Test func reduce() throws {
        #expect(try AnyCursor([1, 2, 3]).reduce(10, +) == 16)
        #expect(try AnyCursor([Int]()).reduce(10, +) == 10)
        #expect(throws: TestError.self) { try AnyCursor([1]).reduce(0) { _, _ in throw TestError() } }
        #expect(throws: TestError.self) { try failingCursor([1]).reduce(0, +) }
    }

    @Test func reduceInto() throws {
        let counts = try AnyCursor(["a", "b", "a"]).reduce(into: [:]) { $0[$1, default: 0] += 1 }
        #expect(counts == ["a": 2, "b": 1])
        #expect(throws: TestError.self) { try AnyCursor([1]).reduce(into: 0) { _, _ in throw TestError() } }
        #expect(throws: TestError.self) { try failingCursor([1]).reduce(into: 0) { $0 += $1 } }
    }

    // MARK: - Collections

    @Test func rangeReplaceableCollection() throws {
        #expect(try Array(AnyCursor([1, 2, 3])) == [1, 2, 3])
        #expect(try Array(AnyCursor([1, 2]), minimumCapacity: 10) == [1, 2])
        #expect(try ContiguousArray(AnyCursor([1, 2])) == [1, 2])
        #expect(try String(AnyCursor(Array("abc"))) == "abc")

        var array = [0]
        try array.append(contentsOf: AnyCursor([1, 2]))
        #expect(array == [0, 1, 2])

        #expect(throws: TestError.self) { try Array(failingCursor([1])) }
        var partial = [0]
        #expect(throws: TestError.self) { try partial.append(contentsOf: failingCursor([1])) }
        #expect(partial == [0, 1])
    }

    @Test func set() throws {
        #expect(try Set(AnyCursor([1, 2, 2, 3])) == [1, 2, 3])
        #expect(try Set(AnyCursor([1, 1]), minimumCapacity: 10) == [1])
        #expect(try Set([1, 2]).union(AnyCursor([2, 3])) == [1, 2, 3])
        #expect(try Set([1, 2, 3]).intersection(AnyCursor([2, 3, 4])) == [2, 3])

        var set: Set = [1, 2]
        try set.formUnion(AnyCursor([3]))
        #expect(set == [1, 2, 3])
        try set.formIntersection(AnyCursor([1, 3, 5]))
        #expect(set == [1, 3])

        #expect(throws: TestError.self) { try Set(failingCursor([1])) }
        #expect(throws: TestError.self) { try Set([1]).intersection(failingCursor([1])) }
    }

    @Test func dictionaryGrouping() throws {
        let words = AnyCursor(["apple", "avocado", "banana"])
        let grouped = try Dictionary(grouping: words, by: { $0.first! })
        #expect(grouped == ["a": ["apple", "avocado"], "b": ["banana"]])

        let grouped2 = try Dictionary(minimumCapacity: 10, grouping: AnyCursor([1, 2, 3, 4]), by: { $0 % 2 })
        #expect(grouped2 == [0: [2, 4], 1: [1, 3]])

        #expect(throws: TestError.self) {
            try Dictionary(grouping: AnyCursor([1]), by: { _ -> Int in throw TestError() })
        }
        #expect(throws: TestError.self) { try Dictionary(grouping: failingCursor([1]), by: { $0 }) }
    }

    @Test func dictionaryUniqueKeysWithValues() throws {
        let pairs = AnyCursor([("a", 1), ("b", 2)])
        #expect(try Dictionary(uniqueKeysWithValues: pairs) == ["a": 1, "b": 2])

        let pairs2 = AnyCursor([1, 2]).map { ($0, String($0)) }
        #expect(try Dictionary(minimumCapacity: 10, uniqueKeysWithValues: pairs2) == [1: "1", 2: "2"])

        #expect(throws: TestError.self) {
            try Dictionary(uniqueKeysWithValues: failingCursor([1]).map { ($0, $0) })
        }
    }

    // MARK: - Chaining and database cursors

    @Test func chaining() throws {
        let result = AnyCursor(1...10)
            .filter { $0 % 2 == 0 }
            .map { $0 * 10 }
            .dropFirst()
            .prefix(3)
            .enumerated()
            .map { $0.0 + $0.1 }
        #expect(try Array(result) == [40, 61, 82])
    }

    @Test func databaseCursor() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let values = try Array(Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2").map { $0 * 10 })
            #expect(values == [10, 20])

            var seen: [Int] = []
            try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3")
                .filter { $0 != 2 }
                .map { $0 * 10 }
                .forEach { seen.append($0) }
            #expect(seen == [10, 30])

            let strings = try String.fetchCursor(db, sql: "SELECT 'a' UNION ALL SELECT 'b'")
            #expect(try strings.joined(separator: ",") == "a,b")

            let rows = try db.allStatements(sql: "SELECT 1; SELECT 2, 3")
                .flatMap { statement in try Row.fetchCursor(statement) }
                .map { $0.copy() }
            #expect(try Array(rows).count == 2)

            let sum = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3").reduce(0, +)
            #expect(sum == 6)
        }
    }

    @Test func databaseCursorErrorFromClosure() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let cursor = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2").map { value -> Int in
                if value == 2 { throw TestError() }
                return value
            }
            #expect(try cursor.next() == 1)
            #expect(throws: TestError.self) { try cursor.next() }
        }
    }
}
