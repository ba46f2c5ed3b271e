import Foundation

// Foundation classes convert like their Swift value counterparts. Decoding
// returns an instance of the receiver (`NSMutableString.fetchOne` gives a
// mutable string), or nil when the receiver is a subclass Strata can't build.

// MARK: - NSNull

extension NSNull: DatabaseValueConvertible {
    /// Stored as NULL.
    public var databaseValue: DatabaseValue { .null }

    /// Always nil: NULL is decoded by optionals (`NSNull?` decodes NULL as
    /// `.some(nil)`), and no other value is NULL.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        nil
    }
}

// MARK: - NSNumber

extension NSNumber: DatabaseValueConvertible {
    /// Stored as INTEGER for integer and boolean numbers, and as REAL for
    /// floating point numbers. Unsigned numbers above `Int64.max` are stored as
    /// REAL, with a loss of precision.
    ///
    /// An `NSDecimalNumber` is stored as INTEGER when it is integral and fits
    /// Int64, and as REAL otherwise, with a possible loss of precision.
    public var databaseValue: DatabaseValue {
        if let decimalNumber = self as? NSDecimalNumber {
            return decimalNumber._decimalDatabaseValue
        }
        switch objCType.pointee {
        case CChar(UInt8(ascii: "f")), CChar(UInt8(ascii: "d")):
            return DatabaseValue(storage: .double(doubleValue))
        case CChar(UInt8(ascii: "Q")), CChar(UInt8(ascii: "L")):
            let value = uint64Value
            if let int64 = Int64(exactly: value) {
                return DatabaseValue(storage: .int64(int64))
            }
            return DatabaseValue(storage: .double(Double(value)))
        default:
            return DatabaseValue(storage: .int64(int64Value))
        }
    }

    /// Decodes integers and doubles, and strings that hold a decimal number
    /// (those give an `NSDecimalNumber`). Other values give nil.
    ///
    /// `NSDecimalNumber.fromDatabaseValue` always gives an `NSDecimalNumber`.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        let wantsDecimal = self is NSDecimalNumber.Type
        switch dbValue.storage {
        case .int64(let v):
            if wantsDecimal { return NSDecimalNumber(value: v) as? Self }
            return NSNumber(value: v) as? Self
        case .double(let v):
            if wantsDecimal {
                guard let decimal = Decimal._fromDouble(v) else { return nil }
                return NSDecimalNumber(decimal: decimal) as? Self
            }
            return NSNumber(value: v) as? Self
        case .string(let string):
            guard let decimal = Decimal._fromDecimalString(string) else { return nil }
            return NSDecimalNumber(decimal: decimal) as? Self
        case .null, .blob:
            return nil
        }
    }
}

extension NSDecimalNumber {
    /// INTEGER when integral and within Int64, REAL otherwise.
    fileprivate var _decimalDatabaseValue: DatabaseValue {
        var value = decimalValue
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        if rounded == value,
            rounded >= Decimal(Int64.min), rounded <= Decimal(Int64.max),
            let int64 = Int64(rounded.description)
        {
            return DatabaseValue(storage: .int64(int64))
        }
        // `doubleValue` can be off by one unit in the last place (1e30 gives
        // 9.999999999999999e+29): parse the decimal string instead.
        return DatabaseValue(storage: .double(Double(value.description) ?? doubleValue))
    }
}

// MARK: - NSString

extension NSString: DatabaseValueConvertible {
    /// Stored as TEXT.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(String(self)))
    }

    /// Only text decodes.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let string = String.fromDatabaseValue(dbValue) else { return nil }
        return (NSString(string: string) as? Self) ?? (NSMutableString(string: string) as? Self)
    }
}

// MARK: - NSData

extension NSData: DatabaseValueConvertible {
    /// Stored as BLOB.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .blob(Data(referencing: self)))
    }

    /// Blobs decode, and so does text, as its UTF-8 bytes.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let data = Data.fromDatabaseValue(dbValue) else { return nil }
        return (NSData(data: data) as? Self) ?? (NSMutableData(data: data) as? Self)
    }
}

// MARK: - NSDate

extension NSDate: DatabaseValueConvertible {
    /// Stored like `Date`: TEXT `YYYY-MM-DD HH:MM:SS.SSS` in UTC.
    public var databaseValue: DatabaseValue {
        Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate).databaseValue
    }

    /// Decodes what `Date` decodes: SQLite date strings and Unix timestamps.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let date = Date.fromDatabaseValue(dbValue) else { return nil }
        return (date as NSDate) as? Self
    }
}

// MARK: - NSURL

extension NSURL: DatabaseValueConvertible {
    /// Stored like `URL`: TEXT, the absolute string.
    public var databaseValue: DatabaseValue {
        (self as URL).databaseValue
    }

    /// Decodes what `URL` decodes: a non-empty URL string.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let url = URL.fromDatabaseValue(dbValue) else { return nil }
        return (url as NSURL) as? Self
    }
}

// MARK: - NSUUID

extension NSUUID: DatabaseValueConvertible {
    /// Stored like `UUID`: a 16-byte BLOB.
    public var databaseValue: DatabaseValue {
        (self as UUID).databaseValue
    }

    /// Decodes what `UUID` decodes: 16-byte blobs and UUID strings.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let uuid = UUID.fromDatabaseValue(dbValue) else { return nil }
        return (uuid as NSUUID) as? Self
    }
}
