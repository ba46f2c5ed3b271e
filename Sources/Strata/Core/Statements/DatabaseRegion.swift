/// A part of the database: tables, columns, and rows, or the full database.
///
/// Statements know the region they read (``Statement/databaseRegion``).
public struct DatabaseRegion: Hashable, Sendable {
    /// Columns of one table; nil columns means all of them.
    struct TableRegion: Hashable, Sendable {
        var columns: Set<String>?
        var rowIDs: Set<Int64>?

        func union(_ other: TableRegion) -> TableRegion {
            let columns: Set<String>? = {
                guard let a = self.columns, let b = other.columns else { return nil }
                return a.union(b)
            }()
            let rowIDs: Set<Int64>? = {
                guard let a = self.rowIDs, let b = other.rowIDs else { return nil }
                return a.union(b)
            }()
            return TableRegion(columns: columns, rowIDs: rowIDs)
        }
    }

    /// Regions by lowercased table name; nil is the full database.
    private(set) var tableRegions: [String: TableRegion]?

    /// The names of tables and columns as first spelled, by lowercased
    /// name, for the description only (not part of equality).
    private var spellings: [String: String] = [:]

    /// Whether some table of the region is restricted to some rows: when
    /// none is, a change to one of its tables modifies the region.
    var restrictsRowIDs: Bool {
        tableRegions?.values.contains { $0.rowIDs != nil } ?? false
    }

    /// Creates an empty region: no table, so no change modifies it. Grow it with `union(_:)`.
    public init() {
        tableRegions = [:]
    }

    private init(tableRegions: [String: TableRegion]?) {
        self.tableRegions = tableRegions
    }

    /// The region of a whole table, or of some of its columns.
    init(table: String, columns: Set<String>? = nil) {
        tableRegions = [table.lowercased(): TableRegion(columns: columns.map { Set($0.map { $0.lowercased() }) })]
        spellings[table.lowercased()] = table
        // The rowid pseudo-column is always spelled `rowid`.
        for column in columns ?? [] where column.lowercased() != "rowid" {
            spellings[table.lowercased() + "." + column.lowercased()] = column
        }
    }

    /// The region with the rows of a table limited to the given rowids.
    func restricting(table: String, toRowIDs rowIDs: Set<Int64>) -> DatabaseRegion {
        guard var tableRegions, var tableRegion = tableRegions[table.lowercased()] else { return self }
        tableRegion.rowIDs = tableRegion.rowIDs.map { $0.intersection(rowIDs) } ?? rowIDs
        tableRegions[table.lowercased()] = tableRegion
        var result = DatabaseRegion(tableRegions: tableRegions)
        result.spellings = spellings
        return result
    }

    /// The region of every table, present and future: any change to the database modifies it.
    public static let fullDatabase = DatabaseRegion(tableRegions: nil)

    /// True when the region is the full database.
    public var isFullDatabase: Bool { tableRegions == nil }

    /// True when the region is empty.
    public var isEmpty: Bool { tableRegions?.isEmpty ?? false }

    /// The union of two regions.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        var result = self
        result.formUnion(other)
        return result
    }

    /// Adds another region to this one.
    public mutating func formUnion(_ other: DatabaseRegion) {
        guard let mine = tableRegions, let theirs = other.tableRegions else {
            tableRegions = nil
            return
        }
        // The common case of region recording (the first statement of a
        // fetch): no merge of dictionaries.
        if theirs.isEmpty { return }
        if mine.isEmpty {
            self = other
            return
        }
        spellings.merge(other.spellings) { mine, _ in mine }
        var merged = mine
        for (table, region) in theirs {
            merged[table] = merged[table].map { $0.union(region) } ?? region
        }
        tableRegions = merged
    }

    /// Regions are equal when they cover the same tables, columns and rows.
    public static func == (lhs: DatabaseRegion, rhs: DatabaseRegion) -> Bool {
        lhs.tableRegions == rhs.tableRegions
    }

    /// Hashes the covered tables, columns and rows.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tableRegions)
    }

    /// The region itself (a region is its own region).
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

extension DatabaseRegion: CustomStringConvertible {
    /// `full database`, `empty`, or tables and columns: `player(name,score)`.
    public var description: String {
        guard let tableRegions else { return "full database" }
        if tableRegions.isEmpty { return "empty" }
        return tableRegions.keys.sorted().map { table -> String in
            let region = tableRegions[table]!
            var text = spellings[table] ?? table
            if let columns = region.columns {
                let spelled = columns.sorted().map { spellings[table + "." + $0] ?? $0 }
                text += "(" + spelled.joined(separator: ",") + ")"
            } else {
                text += "(*)"
            }
            if let rowIDs = region.rowIDs {
                text += "[" + rowIDs.sorted().map(String.init).joined(separator: ",") + "]"
            }
            return text
        }.joined(separator: ",")
    }
}
