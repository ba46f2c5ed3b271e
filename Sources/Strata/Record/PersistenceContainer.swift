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
    /// The column names. While `followsTemplate` is true, this is the
    /// template (the columns of the previous encoding of the same record
    /// type), of which only the first `values.count` names are set: a record
    /// that sets the same columns in the same order shares the template's
    /// buffer, and neither appends names nor searches them.
    @usableFromInline var storedColumns: [String]
    /// The values, aligned with the columns.
    @usableFromInline var values: [DatabaseValue]
    /// Whether `storedColumns` is the template (see above).
    @usableFromInline var followsTemplate: Bool

    /// An empty container.
    init() {
        storedColumns = []
        values = []
        followsTemplate = false
    }

    /// An empty container that expects the columns of the template, in
    /// order, and stores its values in the given empty array (whose
    /// capacity is reused).
    init(template: [String]?, values: [DatabaseValue]) {
        storedColumns = template ?? []
        self.values = values
        self.values.reserveCapacity(storedColumns.count)
        followsTemplate = template != nil
    }

    /// Moves the values out of the container, leaving it empty.
    mutating func takeValues() -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        swap(&values, &self.values)
        storedColumns = []
        followsTemplate = false
        return values
    }

    /// A container filled by the record.
    init(_ record: some EncodableRecord) throws {
        self.init()
        try record.encode(to: &self)
    }

    /// The column names, in order.
    var columns: [String] {
        if followsTemplate && storedColumns.count != values.count {
            return Array(storedColumns[..<values.count])
        }
        return storedColumns
    }

    /// Whether the columns are exactly the template given at creation.
    var matchesTemplate: Bool {
        followsTemplate && storedColumns.count == values.count
    }

    /// The index of the column, compared case-insensitively.
    func index(ofColumn column: String) -> Int? {
        let count = values.count
        for index in 0..<count where storedColumns[index] == column {
            return index
        }
        for index in 0..<count where storedColumns[index].isEqualIgnoringCase(column) {
            return index
        }
        return nil
    }

    /// Sets the value of a column, replacing the value of a column with the
    /// same name (ignoring case).
    ///
    /// Inlinable, so that the record's `encode(to:)` reads the database
    /// value of its properties without copying existentials around.
    @inlinable @inline(__always)
    mutating func setValue(_ value: consuming (any DatabaseValueConvertible)?, forColumn column: String) {
        switch consume value {
        case .some(let value):
            setDatabaseValue(value.databaseValue, forColumn: column)
        case .none:
            setDatabaseValue(.null, forColumn: column)
        }
    }

    /// Sets the database value of a column (see ``setValue(_:forColumn:)``).
    ///
    /// The expected column, the next one of the template, is handled inline.
    @inlinable
    mutating func setDatabaseValue(_ value: consuming DatabaseValue, forColumn column: String) {
        if followsTemplate {
            let count = values.count
            if count < storedColumns.count && storedColumns[count] == column {
                values.append(value)
                return
            }
        }
        setUnexpectedDatabaseValue(value, forColumn: column)
    }

    /// Sets the value of a column that the template did not expect.
    @usableFromInline
    mutating func setUnexpectedDatabaseValue(_ value: consuming DatabaseValue, forColumn column: String) {
        if followsTemplate {
            leaveTemplate()
        }
        if let index = index(ofColumn: column) {
            values[index] = value
        } else {
            storedColumns.append(column)
            values.append(value)
        }
    }

    /// Keeps the columns set so far, and forgets the rest of the template.
    private mutating func leaveTemplate() {
        if storedColumns.count != values.count {
            storedColumns.removeSubrange(values.count...)
        }
        followsTemplate = false
    }

    /// The value of a column (compared case-insensitively), or nil when the
    /// column is missing or NULL. Setting a value replaces the existing one,
    /// or appends the column.
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get {
            guard let index = index(ofColumn: column) else { return nil }
            let value = values[index]
            return value.isNull ? nil : value
        }
        @inlinable @inline(__always) set { setValue(consume newValue, forColumn: column) }
    }

    /// The value of a column (compared case-insensitively), or nil when the
    /// column is missing or NULL.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        @inlinable set { setValue(newValue, forColumn: column.name) }
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
            leaveTemplate()
            storedColumns.remove(at: index)
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
    public var endIndex: Int { values.count }

    /// The column name and database value at a position.
    public subscript(position: Int) -> (String, DatabaseValue) {
        (storedColumns[position], values[position])
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
