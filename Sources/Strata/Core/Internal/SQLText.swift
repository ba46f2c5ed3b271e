import Foundation

extension CharacterSet {
    /// White space, new lines and `;`: what surrounds a statement in an SQL
    /// string without belonging to it.
    static let sqlStatementSeparators = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";"))
}

extension String {
    /// The SQL without the white space and `;` that surround it, as shown in
    /// ``Statement/sql``, trace events and error descriptions.
    ///
    /// Every statement pays for it: ASCII ends are trimmed on the UTF-8
    /// bytes, without allocating when there is nothing to trim. Foundation
    /// trims the rare SQL whose ends are not ASCII (Unicode spaces).
    var trimmedSQL: String {
        let utf8 = self.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end {
            let byte = utf8[start]
            guard byte < 0x80 else { return trimmingCharacters(in: .sqlStatementSeparators) }
            guard Self.isASCIISQLSeparator(byte) else { break }
            utf8.formIndex(after: &start)
        }
        while start < end {
            let last = utf8.index(before: end)
            let byte = utf8[last]
            guard byte < 0x80 else { return trimmingCharacters(in: .sqlStatementSeparators) }
            guard Self.isASCIISQLSeparator(byte) else { break }
            end = last
        }
        if start == utf8.startIndex && end == utf8.endIndex { return self }
        return String(self[start..<end])
    }

    /// Whether an ASCII byte is in ``CharacterSet/sqlStatementSeparators``:
    /// tab, line feed, vertical tab, form feed, carriage return, space, `;`.
    private static func isASCIISQLSeparator(_ byte: UInt8) -> Bool {
        (0x09...0x0D).contains(byte) || byte == 0x20 || byte == UInt8(ascii: ";")
    }
}
