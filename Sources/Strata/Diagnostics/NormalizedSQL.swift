// The identity of a statement for the statement statistics: its SQL with
// the values written in it replaced by `?`, so that `WHERE id = 1` and
// `WHERE id = 2` count as one statement, and a stable hash of it for the
// labels of metrics.

import Foundation

/// A statement's SQL with its literal values as placeholders.
struct NormalizedSQL: Hashable, Sendable {
    /// The normalized text: literals, parameters and `IN` lists of them
    /// become `?`, comments are removed, runs of white space are one space.
    let text: String

    /// The FNV-1a hash of `text`, in 16 hexadecimal digits: the same in
    /// every process and on every platform, unlike `hashValue`.
    var identifier: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Normalizes SQL.
    ///
    /// - `'text'`, `X'00'`, numbers, `?`, `?1`, `:name`, `@name` and `$name`
    ///   become `?`;
    /// - `IN (?, ?, ?)` becomes `IN (...)`, whatever the number of values;
    /// - `-- comments` and `/* comments */` are removed;
    /// - identifiers, quoted or not, and keywords are kept as written;
    /// - commas are followed by one space, and no space is kept before a
    ///   comma or a `)` nor after a `(`.
    init(_ sql: String) {
        var output: [UInt8] = []
        output.reserveCapacity(sql.utf8.count)
        let bytes = Array(sql.utf8)
        var i = 0
        var pendingSpace = false

        func isIdentifierByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x24 || byte >= 0x80
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func emit(_ slice: ArraySlice<UInt8>) {
            if pendingSpace && !output.isEmpty { output.append(0x20) }
            pendingSpace = false
            output.append(contentsOf: slice)
        }
        func emitPlaceholder() { emit([0x3F][...]) }
        // The index after a quoted run that starts at `start` with `quote`,
        // where a doubled quote stands for one.
        func endOfQuoted(from start: Int, quote: UInt8) -> Int {
            var j = start + 1
            while j < bytes.count {
                if bytes[j] == quote {
                    if j + 1 < bytes.count && bytes[j + 1] == quote {
                        j += 2
                        continue
                    }
                    return j + 1
                }
                j += 1
            }
            return bytes.count
        }

        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                pendingSpace = true
                i += 1
            case 0x2D where i + 1 < bytes.count && bytes[i + 1] == 0x2D:  // --
                while i < bytes.count && bytes[i] != 0x0A { i += 1 }
                pendingSpace = true
            case 0x2F where i + 1 < bytes.count && bytes[i + 1] == 0x2A:  // /*
                i += 2
                while i < bytes.count && !(bytes[i] == 0x2A && i + 1 < bytes.count && bytes[i + 1] == 0x2F) {
                    i += 1
                }
                i = min(i + 2, bytes.count)
                pendingSpace = true
            case 0x27:  // 'text'
                i = endOfQuoted(from: i, quote: 0x27)
                emitPlaceholder()
            case 0x22, 0x60:  // "identifier", `identifier`
                let end = endOfQuoted(from: i, quote: byte)
                emit(bytes[i..<end])
                i = end
            case 0x5B:  // [identifier]
                var end = i + 1
                while end < bytes.count && bytes[end] != 0x5D { end += 1 }
                end = min(end + 1, bytes.count)
                emit(bytes[i..<end])
                i = end
            case 0x3F:  // ?, ?NNN
                i += 1
                while i < bytes.count && isDigit(bytes[i]) { i += 1 }
                emitPlaceholder()
            case _
            where (byte == 0x3A || byte == 0x40 || byte == 0x24) && i + 1 < bytes.count
                && isIdentifierByte(bytes[i + 1]):  // :name @name $name
                i += 1
                while i < bytes.count && isIdentifierByte(bytes[i]) { i += 1 }
                emitPlaceholder()
            case _ where isDigit(byte) || (byte == 0x2E && i + 1 < bytes.count && isDigit(bytes[i + 1])):
                // A number: 12, 1.5, .5, 1e-3, 0x1F.
                if byte == 0x30 && i + 1 < bytes.count && (bytes[i + 1] == 0x78 || bytes[i + 1] == 0x58) {
                    i += 2
                    while i < bytes.count && isIdentifierByte(bytes[i]) { i += 1 }
                } else {
                    while i < bytes.count {
                        let b = bytes[i]
                        if isDigit(b) || b == 0x2E {
                            i += 1
                        } else if (b == 0x65 || b == 0x45) && i + 1 < bytes.count {
                            i += 1
                            if bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
                        } else {
                            break
                        }
                    }
                }
                emitPlaceholder()
            case _ where (byte == 0x58 || byte == 0x78) && i + 1 < bytes.count && bytes[i + 1] == 0x27:  // X'0A'
                i = endOfQuoted(from: i + 1, quote: 0x27)
                emitPlaceholder()
            case _ where isIdentifierByte(byte):
                let start = i
                while i < bytes.count && isIdentifierByte(bytes[i]) { i += 1 }
                emit(bytes[start..<i])
            default:
                // Punctuation: no space is kept before `,` and `)`, nor after `(`.
                if byte == 0x2C || byte == 0x29 { pendingSpace = false }
                emit([byte][...])
                if byte == 0x28 { pendingSpace = false }
                if byte == 0x2C { pendingSpace = true }
                i += 1
            }
        }
        text = Self.collapsingInLists(String(decoding: output, as: UTF8.self))
    }

    /// `IN (?, ?, ?)` → `IN (...)`: requests on lists of keys of any length
    /// count as one statement.
    private static func collapsingInLists(_ text: String) -> String {
        guard text.contains("(?,") || text.contains("(?)") else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let range = rest.range(of: "IN (?", options: .caseInsensitive) {
            let afterOpen = rest.index(range.lowerBound, offsetBy: 4)  // at "?"
            if range.lowerBound > rest.startIndex,
                let before = rest[rest.index(before: range.lowerBound)].asciiValue,
                before == 0x5F || before == 0x22 || (before | 0x20 >= 0x61 && before | 0x20 <= 0x7A)
                    || (before >= 0x30 && before <= 0x39)
            {
                // JOIN (, a column named xin (...): not the IN operator.
                result += rest[rest.startIndex..<afterOpen]
                rest = rest[afterOpen...]
                continue
            }
            var cursor = afterOpen
            var isList = false
            while cursor < rest.endIndex {
                guard rest[cursor] == "?" else { break }
                cursor = rest.index(after: cursor)
                if cursor < rest.endIndex && rest[cursor] == ")" {
                    isList = true
                    break
                }
                if rest[cursor...].hasPrefix(", ") {
                    cursor = rest.index(cursor, offsetBy: 2)
                } else if rest[cursor...].hasPrefix(",") {
                    cursor = rest.index(after: cursor)
                } else {
                    break
                }
            }
            if isList {
                result += rest[rest.startIndex..<afterOpen]
                result += "..."
                rest = rest[cursor...]
            } else {
                result += rest[rest.startIndex..<afterOpen]
                rest = rest[afterOpen...]
            }
        }
        result += rest
        return result
    }
}
