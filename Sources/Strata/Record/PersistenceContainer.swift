/// The values that a record stores in its table, by column, in the order
/// they were set.
///
/// ``EncodableRecord/encode(to:)`` fills it:
///
/// ```swift
/// func encode(to container: inout PersistenceContainer) {
///     container["id"] = id
///     container[Columns.name] = name
/// }
/// ```
///
/// Column lookups ignore case: setting `"NAME"` after `"name"` replaces the
/// value of the `"name"` column.
public struct PersistenceContainer {
    /// The column names, in order.
    @usableFromInline var columns: [String]
    /// The values, aligned with `columns`.
    @usableFromInline var values: [DatabaseValue]
    /// Expected column names (from a previous encoding of the same record
    /// type), so that setting them in the same order skips the lookup.
    @usableFromInline var template: [String]?

    /// An empty container.
    init() {
        columns = []
        values = []
    }

    /// An empty container that expects the columns of the template, in order.
    init(template: [String]?) {
        columns = []
        values = []
        if let template {
            columns.reserveCapacity(template.count)
            values.reserveCapacity(template.count)
            self.template = template
        }
    }

    /// A container filled by the record.
    init(_ record: some EncodableRecord) throws {
        self.init()
        try record.encode(to: &self)
    }

    /// The index of the column, compared case-insensitively.
    @usableFromInline
    func index(ofColumn column: String) -> Int? {
        for (index, name) in columns.enumerated() where name == column {
            return index
        }
        for (index, name) in columns.enumerated() where name.isEqualIgnoringCase(column) {
            return index
        }
        return nil
    }

    /// Sets the value of a column, replacing the value of a column with the
    /// same name (ignoring case).
    @inlinable
    mutating func setValue(_ value: (any DatabaseValueConvertible)?, forColumn column: String) {
        setDatabaseValue(value?.databaseValue ?? .null, forColumn: column)
    }

    /// Sets the database value of a column (see ``setValue(_:forColumn:)``).
    @inlinable
    mutating func setDatabaseValue(_ value: DatabaseValue, forColumn column: String) {
        let count = columns.count
        if let template {
            if count < template.count && template[count] == column {
                columns.append(column)
                values.append(value)
                return
            }
            self.template = nil
        }
        updateValue(value, forColumn: column)
    }

    @usableFromInline
    mutating func updateValue(_ value: DatabaseValue, forColumn column: String) {
        if let index = index(ofColumn: column) {
            values[index] = value
        } else {
            columns.append(column)
            values.append(value)
        }
    }

    /// The value of a column (compared case-insensitively), or nil when the
    /// column is missing or NULL. Setting a value replaces the existing one,
    /// or appends the column.
    @inlinable
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get {
            guard let index = index(ofColumn: column) else { return nil }
            let value = values[index]
            return value.isNull ? nil : value
        }
        set { setValue(newValue, forColumn: column) }
    }

    /// The value of a column (compared case-insensitively), or nil when the
    /// column is missing or NULL.
    @inlinable
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { setValue(newValue, forColumn: column.name) }
    }

    /// The database value of a column, or nil when the column is missing.
    func databaseValue(forColumn column: String) -> DatabaseValue? {
        guard let index = index(ofColumn: column) else { return nil }
        return values[index]
    }

    /// The database values, in column order.
    var databaseValues: [DatabaseValue] { values }

    /// Removes a column, if present.
    mutating func removeValue(forColumn column: String) {
        if let index = index(ofColumn: column) {
            columns.remove(at: index)
            values.remove(at: index)
        }
    }
}

extension PersistenceContainer: RandomAccessCollection {
    /// Positions are integers.
    public typealias Index = Int

    /// The position of the first column: 0.
    public var startIndex: Int { 0 }

    /// The number of columns.
    public var endIndex: Int { columns.count }

    /// The column name and database value at a position.
    public subscript(position: Int) -> (String, DatabaseValue) {
        (columns[position], values[position])
    }
}

extension String {
    /// Whether both strings are equal, ignoring the case of ASCII letters
    /// (other characters are compared after lowercasing).
    func isEqualIgnoringCase(_ other: String) -> Bool {
        var lhs = self.utf8.makeIterator()
        var rhs = other.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil):
                return true
            case let (l?, r?):
                if l == r { continue }
                if l >= 0x80 || r >= 0x80 {
                    return self.lowercased() == other.lowercased()
                }
                let lowerL = (l >= 0x41 && l <= 0x5A) ? l + 0x20 : l
                let lowerR = (r >= 0x41 && r <= 0x5A) ? r + 0x20 : r
                if lowerL != lowerR { return false }
            default:
                return false
            }
        }
    }
}
