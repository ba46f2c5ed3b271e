import Foundation

extension CharacterSet {
    /// White space, new lines and `;`: what surrounds a statement in an SQL
    /// string without belonging to it.
    static let sqlStatementSeparators = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";"))
}

extension String {
    /// The SQL without the white space and `;` that surround it, as shown in
    /// ``Statement/sql``, trace events and error descriptions.
    var trimmedSQL: String {
        trimmingCharacters(in: .sqlStatementSeparators)
    }
}
