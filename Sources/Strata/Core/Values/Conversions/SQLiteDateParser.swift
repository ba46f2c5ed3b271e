import Foundation

// A parser and a formatter for the date formats of SQLite, working on raw UTF-8
// bytes: no DateFormatter, no Calendar, no allocation. Dates use the proleptic
// Gregorian calendar, like SQLite's date and time functions.

/// The fields of an SQLite date string such as `2013-10-07 08:23:19.120+02:00`.
@usableFromInline
struct SQLiteDateFields: Sendable {
    /// Whether the string has a `YYYY-MM-DD` part.
    var hasDate: Bool
    var year = 0
    var month = 0
    var day = 0
    /// Whether the string has a `HH:MM` part.
    var hasTime = false
    var hour = 0
    var minute = 0
    /// Whether the string has seconds (`HH:MM:SS`).
    var hasSeconds = false
    var second = 0
    /// Whether the string has a fraction of seconds (`HH:MM:SS.SSS`).
    var hasFraction = false
    /// The fraction of seconds, truncated to milliseconds, in nanoseconds
    /// (`.00456` is 4_000_000).
    var nanosecond = 0
    /// The offset of the time zone indicator in seconds east of UTC, or nil
    /// when the string has no `Z` or `[+-]HH:MM` suffix.
    var timeZoneOffset: Int? = nil

    init(hasDate: Bool) {
        self.hasDate = hasDate
    }
}

@usableFromInline
enum SQLiteDateParser {
    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    static let referenceDateOffset: Int64 = 978_307_200

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS[.S...]]` (with `T` or a space
    /// between date and time) and `HH:MM[:SS[.S...]]`, each time optionally
    /// followed by `Z` or `[+-]HH:MM`. Returns nil for anything else.
    @usableFromInline
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> SQLiteDateFields? {
        guard let base = buffer.baseAddress else { return nil }
        let end = buffer.count
        var i = 0

        // Reads exactly `count` ASCII digits at i.
        @inline(__always)
        func digits(_ count: Int) -> Int? {
            guard i + count <= end else { return nil }
            var value = 0
            for k in 0..<count {
                let digit = Int(base[i + k]) &- 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value &* 10 &+ digit
            }
            i += count
            return value
        }

        @inline(__always)
        func consume(_ byte: UInt8) -> Bool {
            guard i < end, base[i] == byte else { return false }
            i += 1
            return true
        }

        var fields: SQLiteDateFields
        if end >= 5 && base[2] == UInt8(ascii: ":") {
            fields = SQLiteDateFields(hasDate: false)
        } else {
            fields = SQLiteDateFields(hasDate: true)
            guard let year = digits(4), consume(UInt8(ascii: "-")),
                let month = digits(2), consume(UInt8(ascii: "-")),
                let day = digits(2),
                (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            fields.year = year
            fields.month = month
            fields.day = day
            if i == end { return fields }
            guard base[i] == UInt8(ascii: "T") || base[i] == UInt8(ascii: " ") else { return nil }
            i += 1
        }

        // HH:MM[:SS[.S...]]
        guard let hour = digits(2), consume(UInt8(ascii: ":")), let minute = digits(2),
            hour < 24, minute < 60
        else { return nil }
        fields.hasTime = true
        fields.hour = hour
        fields.minute = minute
        if consume(UInt8(ascii: ":")) {
            guard let second = digits(2), second < 60 else { return nil }
            fields.hasSeconds = true
            fields.second = second
            if consume(UInt8(ascii: ".")) {
                // Milliseconds only, as GRDB: further digits are read and
                // dropped.
                var nanosecond = 0
                var scale = 100_000_000
                let start = i
                while i < end {
                    let digit = Int(base[i]) &- 48
                    guard digit >= 0 && digit <= 9 else { break }
                    if scale >= 1_000_000 {
                        nanosecond += digit * scale
                        scale /= 10
                    }
                    i += 1
                }
                guard i > start else { return nil }
                fields.hasFraction = true
                fields.nanosecond = nanosecond
            }
        }

        // Optional time zone, possibly after spaces, as SQLite allows.
        while i < end && base[i] == UInt8(ascii: " ") { i += 1 }
        if i < end {
            switch base[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                i += 1
                fields.timeZoneOffset = 0
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = base[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let tzHour = digits(2), consume(UInt8(ascii: ":")), let tzMinute = digits(2),
                    tzHour <= 14, tzMinute < 60
                else { return nil }
                fields.timeZoneOffset = sign * (tzHour * 3600 + tzMinute * 60)
            default:
                return nil
            }
        }
        guard i == end else { return nil }
        return fields
    }

    /// Parses a string; see ``parse(_:)-(UnsafeBufferPointer<UInt8>)``.
    static func parse(_ string: String) -> SQLiteDateFields? {
        var string = string
        return string.withUTF8 { parse($0) }
    }

    /// The time interval since 2001-01-01 UTC (Foundation's reference
    /// date, the one `Date` stores) of a string with a date part, or nil.
    /// Strings without a time zone are read in UTC.
    ///
    /// Dates are precise to the millisecond: further digits are dropped
    /// (`.00456` is 4 ms, `.999123` is 999 ms). The result is the double
    /// nearest to the exact instant, rounded once: the milliseconds since
    /// the reference date are an exact integer, divided by 1000 in one
    /// correctly rounded operation. (A time interval since 1970, converted
    /// by `Date(timeIntervalSince1970:)`, would be rounded twice, and could
    /// land one double further: 2015-07-22 01:02:03.004 would have 3,999,948
    /// nanoseconds instead of 4,000,008.)
    @usableFromInline
    static func timeIntervalSinceReferenceDate(_ buffer: UnsafeBufferPointer<UInt8>) -> TimeInterval? {
        if let interval = storedFormatTimeInterval(buffer) { return interval }
        return parsedTimeInterval(buffer)
    }

    /// The time interval of ``timeIntervalSinceReferenceDate(_:)``, with the
    /// general parser.
    static func parsedTimeInterval(_ buffer: UnsafeBufferPointer<UInt8>) -> TimeInterval? {
        guard let fields = parse(buffer), fields.hasDate else { return nil }
        let days = Int64(daysSinceEpoch(year: fields.year, month: fields.month, day: fields.day))
        var seconds = days * 86_400 + Int64(fields.hour * 3600 + fields.minute * 60 + fields.second)
        seconds -= Int64(fields.timeZoneOffset ?? 0) + referenceDateOffset
        return Double(seconds * 1000 + Int64(fields.nanosecond / 1_000_000)) / 1000
    }

    /// The time interval since 2001-01-01 UTC of `YYYY-MM-DD HH:MM:SS.SSS`
    /// or `YYYY-MM-DD HH:MM:SS` (space or `T` separator), the formats dates
    /// are stored in; nil for anything else, including invalid fields, which
    /// the general parser handles. Reads fixed positions, without the state
    /// of the general parser (a third of the cost of fetching a date).
    @inline(__always)
    static func storedFormatTimeInterval(_ buffer: UnsafeBufferPointer<UInt8>) -> TimeInterval? {
        guard let base = buffer.baseAddress else { return nil }
        let count = buffer.count
        guard count == 23 || count == 19 else { return nil }
        // Each digit; a byte that is not a digit makes `largestDigit` above 9.
        var largestDigit: UInt8 = 0
        @inline(__always)
        func digit(_ offset: Int) -> Int {
            let value = base[offset] &- 48
            largestDigit = max(largestDigit, value)
            return Int(value)
        }
        let year = digit(0) &* 1000 &+ digit(1) &* 100 &+ digit(2) &* 10 &+ digit(3)
        let month = digit(5) &* 10 &+ digit(6)
        let day = digit(8) &* 10 &+ digit(9)
        let hour = digit(11) &* 10 &+ digit(12)
        let minute = digit(14) &* 10 &+ digit(15)
        let second = digit(17) &* 10 &+ digit(18)
        var milliseconds = 0
        if count == 23 {
            guard base[19] == UInt8(ascii: ".") else { return nil }
            milliseconds = digit(20) &* 100 &+ digit(21) &* 10 &+ digit(22)
        }
        let separator = base[10]
        guard largestDigit <= 9, base[4] == UInt8(ascii: "-"), base[7] == UInt8(ascii: "-"),
            separator == UInt8(ascii: " ") || separator == UInt8(ascii: "T"),
            base[13] == UInt8(ascii: ":"), base[16] == UInt8(ascii: ":"),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        // daysSinceEpoch(year:month:day:) on unsigned integers: the year,
        // shifted by one era of 400 years, is never negative, so the signed
        // era correction goes (calling it costs 4% more per date: 92.4 M
        // instead of 88.5 M for 100,000 dates).
        let m = UInt(bitPattern: month)
        let y = UInt(bitPattern: year) &+ (m <= 2 ? 399 : 400)
        let era = y / 400
        let yearOfEra = y &- era &* 400
        let dayOfYear = (153 &* (m > 2 ? m &- 3 : m &+ 9) &+ 2) / 5 &+ UInt(bitPattern: day) &- 1
        let dayOfEra = yearOfEra &* 365 &+ yearOfEra / 4 &- yearOfEra / 100 &+ dayOfYear
        let days = Int64(bitPattern: UInt64(era &* 146_097 &+ dayOfEra)) &- (719_468 + 146_097)
        // Seconds since the reference date (978_307_200 is
        // `referenceDateOffset`, written as a literal on this hot path): the
        // division below is the one rounding (see
        // timeIntervalSinceReferenceDate(_:)).
        let seconds = days &* 86_400 &+ Int64(hour &* 3600 &+ minute &* 60 &+ second) &- 978_307_200
        return Double(seconds &* 1000 &+ Int64(milliseconds)) / 1000
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date. Days past the end
    /// of the month roll over into the next month.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a number of days since 1970-01-01.
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

// MARK: - Formatting

/// Writes ASCII date fields into a byte buffer.
struct SQLiteDateWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
    }

    mutating func byte(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Writes a non-negative number with exactly `width` digits.
    mutating func number(_ value: Int, width: Int) {
        var value = value
        var k = width - 1
        while k >= 0 {
            base[count + k] = UInt8(truncatingIfNeeded: 48 + value % 10)
            value /= 10
            k -= 1
        }
        count += width
    }

    /// Writes a year with at least four digits, and a minus sign before year 0.
    mutating func year(_ year: Int64) {
        if year < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = year.magnitude
        var width = 4
        var limit: UInt64 = 10_000
        while magnitude >= limit && width < 19 {
            width += 1
            limit *= 10
        }
        var value = magnitude
        var k = width - 1
        while k >= 0 {
            base[count + k] = UInt8(truncatingIfNeeded: 48 + value % 10)
            value /= 10
            k -= 1
        }
        count += width
    }
}

extension SQLiteDateParser {
    /// `YYYY-MM-DD HH:MM:SS.SSS` in UTC, rounded to the nearest millisecond.
    static func databaseString(timeIntervalSinceReferenceDate interval: TimeInterval) -> String {
        // Clamp to about ±3 million years so that integer arithmetic can't overflow.
        let limit = 1e17
        var scaled = (interval * 1000).rounded()
        if scaled.isNaN { scaled = 0 }
        scaled = min(max(scaled, -limit), limit)
        let milliseconds = Int64(scaled) + referenceDateOffset * 1000
        let msPerDay: Int64 = 86_400_000
        var days = milliseconds / msPerDay
        var msOfDay = milliseconds % msPerDay
        if msOfDay < 0 {
            msOfDay += msPerDay
            days -= 1
        }
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let ms = Int(msOfDay)
        return String(unsafeUninitializedCapacity: 32) { buffer in
            var writer = SQLiteDateWriter(buffer)
            writer.year(year)
            writer.byte(UInt8(ascii: "-"))
            writer.number(month, width: 2)
            writer.byte(UInt8(ascii: "-"))
            writer.number(day, width: 2)
            writer.byte(UInt8(ascii: " "))
            writer.number(ms / 3_600_000, width: 2)
            writer.byte(UInt8(ascii: ":"))
            writer.number(ms / 60_000 % 60, width: 2)
            writer.byte(UInt8(ascii: ":"))
            writer.number(ms / 1000 % 60, width: 2)
            writer.byte(UInt8(ascii: "."))
            writer.number(ms % 1000, width: 3)
            return writer.count
        }
    }
}
