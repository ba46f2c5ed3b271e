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
public struct PersistenceContainer: Sendable {
    /// The column names. While `followsTemplate` is true, this is the
    /// template (the columns of the previous encoding of the same record
    /// type), of which only the first `templateCount` names are set: a
    /// record that sets the same columns in the same order shares the
    /// template's buffer, and neither appends names nor searches them.
    @usableFromInline var storedColumns: [String]
    /// The values, aligned with the columns. While `followsTemplate` is
    /// true, only the first `templateCount` values are set: the others are
    /// the values of a previous record, overwritten as the record sets its
    /// columns (the buffer is reused without destroying its values first).
    @usableFromInline var values: [DatabaseValue]
    /// Whether `storedColumns` is the template (see above).
    @usableFromInline var followsTemplate: Bool
    /// The number of columns set, while `followsTemplate` is true.
    @usableFromInline var templateCount = 0

    /// An empty container.
    @usableFromInline
    init() {
        storedColumns = []
        values = []
        followsTemplate = false
    }

    /// An empty container that expects the columns of the template, in
    /// order, and stores its values in the given array, whose values are
    /// overwritten (the buffer of a previous container).
    init(template: [String]?, values: [DatabaseValue]) {
        storedColumns = template ?? []
        self.values = values
        followsTemplate = template != nil
        if !followsTemplate {
            self.values.removeAll(keepingCapacity: true)
        }
        self.values.reserveCapacity(storedColumns.count)
    }

    /// An empty container that expects the columns of the template, with
    /// no values buffer: the encoder of an `Encodable` record that binds
    /// its values to an INSERT (MutablePersistableRecord+EncodedInsert.swift)
    /// stores none.
    init(bindingTemplate template: [String]) {
        storedColumns = template
        values = []
        followsTemplate = true
    }

    /// Whether the container is one of `init(bindingTemplate:)` with this
    /// very template (the same buffer), and nothing set.
    func isEmptyBindingContainer(of template: [String]) -> Bool {
        followsTemplate && templateCount == 0 && values.isEmpty && Self.sharesBuffer(storedColumns, template)
    }

    /// Moves the columns and values buffers out of the container, leaving
    /// it empty.
    mutating func takeBuffers() -> (columns: [String], values: [DatabaseValue]) {
        var values: [DatabaseValue] = []
        swap(&values, &self.values)
        var columns: [String] = []
        swap(&columns, &storedColumns)
        followsTemplate = false
        templateCount = 0
        return (columns, values)
    }

    /// Whether two arrays of names share their buffer: a container's
    /// columns that are a template, and that template.
    static func sharesBuffer(_ lhs: [String], _ rhs: [String]) -> Bool {
        lhs.withUnsafeBufferPointer { lhs in
            rhs.withUnsafeBufferPointer { rhs in
                lhs.baseAddress == rhs.baseAddress && lhs.count == rhs.count
            }
        }
    }

    /// Drops the values left from a previous record, once the record has
    /// set its columns.
    @usableFromInline
    mutating func finishEncoding() {
        if followsTemplate && values.count != templateCount {
            values.removeSubrange(templateCount...)
        }
    }

    /// The number of columns set.
    var columnCount: Int {
        followsTemplate ? templateCount : values.count
    }

    /// A container filled by the record.
    init(_ record: some EncodableRecord) throws {
        self.init()
        try record.encode(to: &self)
    }

    /// The column names, in order.
    var columns: [String] {
        if followsTemplate && storedColumns.count != templateCount {
            return Array(storedColumns[..<templateCount])
        }
        return storedColumns
    }

    /// Whether the columns are exactly the template given at creation.
    @inlinable
    var matchesTemplate: Bool {
        followsTemplate && storedColumns.count == templateCount
    }

    /// The index of the column, compared case-insensitively.
    func index(ofColumn column: String) -> Int? {
        let count = columnCount
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
            let count = templateCount
            if count < storedColumns.count && storedColumns[count] == column {
                if count < values.count {
                    values[count] = value
                } else {
                    values.append(value)
                }
                templateCount = count + 1
                return
            }
        }
        setUnexpectedDatabaseValue(value, forColumn: column)
    }

    /// Sets the value of the template's next column, which the caller knows
    /// to be the value's column.
    @inline(__always)
    mutating func setNextTemplateValue(_ value: consuming DatabaseValue) {
        let count = templateCount
        if count < values.count {
            values[count] = value
        } else {
            values.append(value)
        }
        templateCount = count + 1
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
        finishEncoding()
        if storedColumns.count != values.count {
            storedColumns.removeSubrange(values.count...)
        }
        followsTemplate = false
        templateCount = 0
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
    public var endIndex: Int { columnCount }

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
