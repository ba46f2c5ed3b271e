// The scopes of a `Row` (the named rows a `ScopeAdapter` defines, and their
// tree) and its prefetched rows (those of `including(all:)` associations):
// the public views, and the storage they read. The row itself is in Row.swift.

import Foundation

extension Row {
    /// The scopes of the row, defined by a ``ScopeAdapter``.
    public var scopes: ScopesView {
        if case .adapted(let base, let adapter) = impl {
            return ScopesView(base: base, scopes: adapter._scopes, prefetchedRows: prefetchStorage.scopes)
        }
        return ScopesView(base: self, scopes: [:], prefetchedRows: [:])
    }

    /// The scopes of the row and of its scopes, recursively.
    public var scopesTree: ScopesTreeView {
        ScopesTreeView(scopes: scopes)
    }

    /// The rows prefetched by `including(all:)` associations.
    public var prefetchedRows: PrefetchedRowsView {
        PrefetchedRowsView(row: self)
    }

    /// The scopes of a row: a collection of named rows.
    public struct ScopesView: Collection {
        /// A position in the scopes.
        public typealias Index = Dictionary<String, any _LayoutedRowAdapter>.Index

        let base: Row
        let scopes: [String: any _LayoutedRowAdapter]
        /// The rows prefetched in each scope.
        let prefetchedRows: [String: PrefetchedRowsStorage]

        /// The first position.
        public var startIndex: Index { scopes.startIndex }
        /// The position after the last scope.
        public var endIndex: Index { scopes.endIndex }
        /// The position after `i`.
        public func index(after i: Index) -> Index { scopes.index(after: i) }

        /// The names of the scopes.
        public var names: Dictionary<String, any _LayoutedRowAdapter>.Keys { scopes.keys }

        /// The scope name and row at a position.
        public subscript(position: Index) -> (name: String, row: Row) {
            let (name, adapter) = scopes[position]
            return (name, scopedRow(name, adapter))
        }

        /// The scoped row with this name, or nil.
        public subscript(name: String) -> Row? {
            scopes[name].map { scopedRow(name, $0) }
        }

        private func scopedRow(_ name: String, _ adapter: any _LayoutedRowAdapter) -> Row {
            let row = Row(base: base, adapter: adapter)
            if let storage = prefetchedRows[name] {
                row.prefetchStorage = storage
            }
            return row
        }
    }

    /// All the scopes of a row, searched breadth-first.
    public struct ScopesTreeView {
        let scopes: ScopesView

        /// The names of all scopes, at any depth.
        public var names: Set<String> {
            var result = Set<String>()
            var fringe = [scopes]
            while !fringe.isEmpty {
                var next: [ScopesView] = []
                for view in fringe {
                    for (name, row) in view {
                        result.insert(name)
                        next.append(row.scopes)
                    }
                }
                fringe = next
            }
            return result
        }

        /// The closest scoped row with this name, or nil.
        public subscript(name: String) -> Row? {
            var fringe = [scopes]
            while !fringe.isEmpty {
                var next: [ScopesView] = []
                for view in fringe {
                    if let row = view[name] { return row }
                    next += view.map { $0.row.scopes }
                }
                fringe = next
            }
            return nil
        }
    }

    /// The prefetched rows of a row, by association key.
    public struct PrefetchedRowsView: Equatable {
        let row: Row

        /// True when there are no prefetched rows, at any depth.
        public var isEmpty: Bool {
            row.prefetchStorage.isEmpty
        }

        /// The keys of prefetched rows, at any depth.
        public var keys: Set<String> {
            var result = Set(row.prefetchStorage.rows.keys)
            for (_, scope) in row.scopes {
                result.formUnion(scope.prefetchedRows.keys)
            }
            return result
        }

        /// Views are equal when they have the same keys, and equal rows for each key.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            let keys = lhs.keys
            return keys == rhs.keys && keys.allSatisfy { lhs[$0] == rhs[$0] }
        }

        /// The prefetched rows for the key, searched in the row then in its scopes.
        public subscript(key: String) -> [Row]? {
            if let rows = row.prefetchStorage.rows[key] { return rows }
            for (_, scope) in row.scopes {
                if let rows = scope.prefetchedRows[key] { return rows }
            }
            return nil
        }
    }
}

// MARK: - Prefetched rows storage

/// The rows prefetched by `including(all:)`: those of a row, by association
/// key, and those of its scopes (`including(all:)` nested in a to-one
/// association), by scope name.
struct PrefetchedRowsStorage: Equatable {
    var rows: [String: [Row]] = [:]
    var scopes: [String: PrefetchedRowsStorage] = [:]

    var isEmpty: Bool { rows.isEmpty && scopes.values.allSatisfy(\.isEmpty) }
}

extension Row {
    /// Stores prefetched rows at a key path of scopes: `["author", "awards"]`
    /// stores them under the key `awards` of the scope `author`. When a
    /// scope of the path is missing (a joined association that selects
    /// nothing), the rows are stored on the deepest existing scope.
    func setPrefetchedRows(_ rows: [Row], forKeyPath keyPath: [String]) {
        func store(
            _ storage: inout PrefetchedRowsStorage, scopes: [String: any _LayoutedRowAdapter],
            path: ArraySlice<String>
        ) {
            if path.count > 1, let scope = scopes[path[path.startIndex]] {
                store(
                    &storage.scopes[path[path.startIndex], default: PrefetchedRowsStorage()],
                    scopes: scope._scopes, path: path.dropFirst())
            } else {
                storage.rows[path[path.endIndex - 1]] = rows
            }
        }
        let scopes: [String: any _LayoutedRowAdapter]
        if case .adapted(_, let adapter) = impl {
            scopes = adapter._scopes
        } else {
            scopes = [:]
        }
        store(&prefetchStorage, scopes: scopes, path: keyPath[...])
    }
}
