/// The columns a row adapter works on: base indexes and names.
public protocol _RowLayout {
    /// The columns of the layout: index in the base row, and name. Read by the adapters; apps do
    /// not call it.
    var _layoutColumns: [(Int, String)] { get }
    /// The position in ``_layoutColumns`` of the leftmost column with this name
    /// (case-insensitive). Read by the adapters; apps do not call it.
    func _layoutIndex(ofColumn name: String) -> Int?
}

/// A row adapter applied to a layout: which base columns an adapted row
/// exposes, under which names, and its scopes.
public protocol _LayoutedRowAdapter: Sendable {
    /// The columns of the adapted row. Read by adapted rows; apps do not call it.
    var _mapping: _LayoutedColumnMapping { get }
    /// The scopes of the adapted row, by name. Read by ``Row/scopes``; apps do not call it.
    var _scopes: [String: any _LayoutedRowAdapter] { get }
}

/// The columns exposed by an adapted row: base indexes and names.
public struct _LayoutedColumnMapping: Sendable, _LayoutedRowAdapter, _RowLayout {
    /// (base index, name) pairs, in order.
    let columns: [(Int, String)]
    /// Lowercased names to leftmost position.
    private let lowercaseIndexes: [String: Int]

    init(columns: [(Int, String)]) {
        self.columns = columns
        var indexes: [String: Int] = [:]
        // Indices rather than `enumerated().reversed()`, whose collection
        // form needs a recent system.
        for i in columns.indices.reversed() {
            indexes[columns[i].1.lowercased()] = i
        }
        self.lowercaseIndexes = indexes
    }

    /// A mapping is its own column mapping; read by adapted rows, apps do not call it.
    public var _mapping: _LayoutedColumnMapping { self }
    /// A plain mapping defines no scope; read by adapted rows, apps do not call it.
    public var _scopes: [String: any _LayoutedRowAdapter] { [:] }
    /// The mapped columns, so that another adapter can apply on top of this one; apps do not call it.
    public var _layoutColumns: [(Int, String)] { columns }

    /// The position of the leftmost mapped column with this name (case-insensitive), for an adapter
    /// applied on top of this one; apps do not call it.
    public func _layoutIndex(ofColumn name: String) -> Int? {
        lowercaseIndexes[name.lowercased()]
    }

    /// The base index of the column at `position`.
    func baseIndex(at position: Int) -> Int { columns[position].0 }
}

/// A layouted adapter with scopes.
struct LayoutedScopedAdapter: _LayoutedRowAdapter {
    let _mapping: _LayoutedColumnMapping
    let _scopes: [String: any _LayoutedRowAdapter]
}

/// A row adapter changes the columns of fetched rows: it selects, renames and
/// groups them into scopes. Pass one to any fetching method (`adapter:`).
///
/// The built-in adapters are ``ColumnMapping``, ``SuffixRowAdapter``,
/// ``RangeRowAdapter``, ``EmptyRowAdapter``, ``RenameColumnAdapter`` and
/// ``ScopeAdapter``.
public protocol RowAdapter: Sendable {
    /// Applies the adapter to a layout (a statement's columns, or an adapter's), once per
    /// statement. Throws when a column is missing. Called by the fetch methods; apps do not call it.
    func _layoutedAdapter(from layout: any _RowLayout) throws -> any _LayoutedRowAdapter
}

extension RowAdapter {
    /// Returns an adapter that defines scopes on top of this one.
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        if scopes.isEmpty { return self }
        return ScopeAdapter(base: self, scopes: scopes)
    }
}

/// An adapter that renames columns, and drops the unmapped ones.
///
/// ```swift
/// // [newName: oldName]
/// let adapter = ColumnMapping(["id": "authorId", "name": "authorName"])
/// ```
public struct ColumnMapping: RowAdapter {
    let mapping: [String: String]

    /// Creates an adapter from a dictionary `[newName: oldName]`.
    public init(_ mapping: [String: String]) {
        self.mapping = mapping
    }

    /// Resolves the old names in the layout, and throws for a missing one. Called by the fetch
    /// methods once per statement; apps do not call it.
    public func _layoutedAdapter(from layout: any _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        let mapped = try mapping.map { newName, oldName -> (Int, String, Int) in
            guard let position = layout._layoutIndex(ofColumn: oldName) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "Mapping references missing column \(oldName)")
            }
            return (columns[position].0, newName, position)
        }
        // Keep the order of the base columns; ties by name, for stability.
        let sorted = mapped.sorted { ($0.2, $0.1) < ($1.2, $1.1) }
        return _LayoutedColumnMapping(columns: sorted.map { ($0.0, $0.1) })
    }
}

/// An adapter that keeps the columns from an index to the end.
public struct SuffixRowAdapter: RowAdapter {
    let index: Int

    /// Creates an adapter that keeps the columns from `index` on.
    public init(fromIndex index: Int) {
        precondition(index >= 0, "Negative column index is out of range")
        self.index = index
    }

    /// Keeps the layout's columns from the index on (none past the end). Called by the fetch
    /// methods once per statement; apps do not call it.
    public func _layoutedAdapter(from layout: any _RowLayout) throws -> any _LayoutedRowAdapter {
        _LayoutedColumnMapping(
            columns: Array(layout._layoutColumns.suffix(from: Swift.min(index, layout._layoutColumns.count))))
    }
}

/// An adapter that keeps a range of columns.
public struct RangeRowAdapter: RowAdapter {
    let range: Range<Int>

    /// Creates an adapter that keeps the columns in the range.
    public init(_ range: CountableRange<Int>) {
        precondition(range.lowerBound >= 0, "Negative column index is out of range")
        self.range = range
    }

    /// Creates an adapter that keeps the columns in the range.
    public init(_ range: CountableClosedRange<Int>) {
        self.init(range.lowerBound..<(range.upperBound + 1))
    }

    /// Keeps the layout's columns in the range, clamped to the columns there are. Called by the
    /// fetch methods once per statement; apps do not call it.
    public func _layoutedAdapter(from layout: any _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        let clamped = range.clamped(to: 0..<columns.count)
        return _LayoutedColumnMapping(columns: Array(columns[clamped]))
    }
}

/// An adapter that hides all columns.
public struct EmptyRowAdapter: RowAdapter {
    /// Creates an adapter that hides all columns.
    public init() {}

    /// Returns a mapping with no column. Called by the fetch methods; apps do not call it.
    public func _layoutedAdapter(from layout: any _RowLayout) throws -> any _LayoutedRowAdapter {
        _LayoutedColumnMapping(columns: [])
    }
}

/// An adapter that renames all columns with a function.
///
/// ```swift
/// // Removes a "player_" prefix
/// let adapter = RenameColumnAdapter { String($0.dropFirst(7)) }
/// ```
public struct RenameColumnAdapter: RowAdapter {
    let transform: @Sendable (String) -> String

    /// Creates an adapter that renames columns with `transform`.
    public init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    /// Renames each column of the layout with the function, once per statement. Called by the
    /// fetch methods; apps do not call it.
    public func _layoutedAdapter(from layout: any _RowLayout) throws -> any _LayoutedRowAdapter {
        _LayoutedColumnMapping(columns: layout._layoutColumns.map { ($0.0, transform($0.1)) })
    }
}

/// An adapter that defines scopes: named adapted rows, read through
/// ``Row/scopes``.
///
/// ```swift
/// let adapter = ScopeAdapter([
///     "author": RangeRowAdapter(0..<2),
///     "book": SuffixRowAdapter(fromIndex: 2)])
/// let row = try Row.fetchOne(db, sql: sql, adapter: adapter)!
/// row.scopes["author"] // [id:1 name:"Herman Melville"]
/// ```
public struct ScopeAdapter: RowAdapter {
    let base: (any RowAdapter)?
    let scopes: [String: any RowAdapter]

    /// Creates an adapter that keeps all columns and defines scopes.
    public init(_ scopes: [String: any RowAdapter]) {
        self.base = nil
        self.scopes = scopes
    }

    /// Creates an adapter that applies `base` and defines scopes; scopes are
    /// defined on the columns of the unadapted row.
    public init(base: some RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    /// Applies the base adapter (if any) and each scope's adapter to the unadapted layout. Called
    /// by the fetch methods once per statement; apps do not call it.
    public func _layoutedAdapter(from layout: any _RowLayout) throws -> any _LayoutedRowAdapter {
        let baseAdapter: any _LayoutedRowAdapter
        if let base {
            baseAdapter = try base._layoutedAdapter(from: layout)
        } else {
            baseAdapter = _LayoutedColumnMapping(columns: layout._layoutColumns)
        }
        var layoutedScopes = baseAdapter._scopes
        for (name, adapter) in scopes {
            layoutedScopes[name] = try adapter._layoutedAdapter(from: layout)
        }
        return LayoutedScopedAdapter(_mapping: baseAdapter._mapping, _scopes: layoutedScopes)
    }
}

/// Returns adapters that split a row: one per column count, then one for the
/// remaining columns.
///
/// ```swift
/// let adapters = splittingRowAdapters(columnCounts: [2, 3])
/// // [RangeRowAdapter(0..<2), RangeRowAdapter(2..<5), SuffixRowAdapter(fromIndex: 5)]
/// ```
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
    guard !columnCounts.isEmpty else {
        return [SuffixRowAdapter(fromIndex: 0)]
    }
    var adapters: [any RowAdapter] = []
    var start = 0
    for count in columnCounts {
        adapters.append(RangeRowAdapter(start..<(start + count)))
        start += count
    }
    adapters.append(SuffixRowAdapter(fromIndex: start))
    return adapters
}
