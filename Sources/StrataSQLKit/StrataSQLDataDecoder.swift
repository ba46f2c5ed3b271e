#if SQLKit
    import Foundation
    import Strata

    /// Reads SQLite values as the types SQLKit asks for, as sqlite-kit
    /// reads them: integers, reals, text and blobs as such, `Bool` from 0
    /// or 1, `Date` from seconds since 1970 or ISO 8601 text, `UUID` from
    /// its string, and the types that are not single values (arrays,
    /// dictionaries, structs) from JSON, read by ``json``.
    public struct StrataSQLDataDecoder: Sendable {
        /// Reads the values that are not single values.
        public var json: JSONDecoder

        /// A decoder whose JSON is read by `json`.
        public init(json: JSONDecoder = JSONDecoder()) {
            self.json = json
        }

        /// `dbValue` as a `T`.
        public func decode<T: Decodable>(_ type: T.Type, from dbValue: DatabaseValue) throws -> T {
            if let value = try Self.singleValue(type, from: dbValue) { return value }
            do {
                return try T(from: SingleValueDecoder(dataDecoder: self, dbValue: dbValue))
            } catch is NotASingleValue {
                let data: Data
                switch dbValue.storage {
                case .string(let string): data = Data(string.utf8)
                case .blob(let blob): data = blob
                case .int64(let int64): data = Data(String(int64).utf8)
                case .double(let double): data = Data(String(double).utf8)
                case .null: data = Data()
                }
                return try json.decode(T.self, from: data)
            }
        }

        /// The value of the types read without asking them to decode
        /// themselves; nil for the others.
        static func singleValue<T>(_ type: T.Type, from dbValue: DatabaseValue) throws -> T? {
            func mismatch() -> DecodingError {
                DecodingError.typeMismatch(
                    T.self,
                    .init(codingPath: [], debugDescription: "Could not convert SQLite value \(dbValue) to \(T.self)"))
            }
            func integer<I: FixedWidthInteger>(_: I.Type) throws -> T {
                guard case .int64(let int64) = dbValue.storage, let value = I(exactly: int64) else { throw mismatch() }
                return value as! T
            }
            switch type {
            case is String.Type:
                switch dbValue.storage {
                case .string(let string): return (string as! T)
                case .int64(let int64): return (String(int64) as! T)
                case .double(let double): return (String(double) as! T)
                default: throw mismatch()
                }
            case is Int.Type: return try integer(Int.self)
            case is Int64.Type: return try integer(Int64.self)
            case is Int32.Type: return try integer(Int32.self)
            case is Int16.Type: return try integer(Int16.self)
            case is Int8.Type: return try integer(Int8.self)
            case is UInt.Type: return try integer(UInt.self)
            case is UInt64.Type: return try integer(UInt64.self)
            case is UInt32.Type: return try integer(UInt32.self)
            case is UInt16.Type: return try integer(UInt16.self)
            case is UInt8.Type: return try integer(UInt8.self)
            case is Double.Type, is Float.Type:
                let double: Double
                switch dbValue.storage {
                case .int64(let int64): double = Double(int64)
                case .double(let value): double = value
                default: throw mismatch()
                }
                return type == Float.self ? (Float(double) as! T) : (double as! T)
            case is Bool.Type:
                let integer: Int64? =
                    switch dbValue.storage {
                    case .int64(let int64): int64
                    case .double(let double): Int64(exactly: double.rounded(.towardZero))
                    case .string(let string): Int64(string)
                    default: nil
                    }
                switch integer {
                case 0: return (false as! T)
                case 1: return (true as! T)
                default: throw mismatch()
                }
            case is Date.Type:
                guard let date = Self.date(from: dbValue) else { throw mismatch() }
                return (date as! T)
            case is Data.Type:
                guard case .blob(let data) = dbValue.storage else { throw mismatch() }
                return (data as! T)
            case is DatabaseValue.Type:
                return (dbValue as! T)
            default:
                return nil
            }
        }

        /// Seconds since 1970 (rounded to the microsecond, as sqlite-kit
        /// does), or ISO 8601 text, with a `T` or a space between date and
        /// time, with or without a time zone, or a date alone.
        static func date(from dbValue: DatabaseValue) -> Date? {
            switch dbValue.storage {
            case .int64(let int64): return Date(timeIntervalSince1970: Double(int64))
            case .double(let double):
                let sinceReference = double - Date.timeIntervalBetween1970AndReferenceDate
                return Date(timeIntervalSinceReferenceDate: (sinceReference * 1e6).rounded() / 1e6)
            case .string(let string): return ISO8601Text.date(from: string)
            default: return nil
            }
        }
    }

    /// The ISO 8601 text of dates that the decoder reads.
    private enum ISO8601Text {
        static func date(from string: String) -> Date? {
            let strict = ISO8601DateFormatter()
            if let date = strict.date(from: string) { return date }
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions.insert(.withFractionalSeconds)
            if let date = fractional.date(from: string) { return date }
            let spaced = string.replacingOccurrences(of: " ", with: "T")
            if let date = strict.date(from: spaced) ?? fractional.date(from: spaced) { return date }
            for format in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd"] {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(secondsFromGMT: 0)
                formatter.dateFormat = format
                if let date = formatter.date(from: string) { return date }
            }
            return nil
        }
    }

    /// Gives a type its single value; keyed and unkeyed containers throw
    /// ``NotASingleValue``, so that the type is read from JSON.
    private struct SingleValueDecoder: Decoder, SingleValueDecodingContainer {
        let dataDecoder: StrataSQLDataDecoder
        let dbValue: DatabaseValue
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            throw NotASingleValue()
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotASingleValue() }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { dbValue.isNull }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try dataDecoder.decode(type, from: dbValue)
        }
    }
#endif
