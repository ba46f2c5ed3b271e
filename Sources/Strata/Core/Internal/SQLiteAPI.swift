@_exported import StrataSQLite

/// A raw SQLite connection handle (`sqlite3*`), owned by Strata.
///
/// Never close it yourself, and only use it inside a database access.
public typealias SQLiteConnection = OpaquePointer

/// A raw SQLite prepared statement handle (`sqlite3_stmt*`), owned by Strata.
///
/// Never finalize it yourself, and only use it inside a database access.
public typealias SQLiteStatement = OpaquePointer

/// SQLite's `SQLITE_TRANSIENT` destructor: SQLite copies the bound bytes.
@usableFromInline
let SQLITE_TRANSIENT: sqlite3_destructor_type = _strata_sqlite_transient()

/// Facts about the linked SQLite library, read once at run time.
enum SQLiteLibrary {
    /// `sqlite3_libversion_number()`, such as 3040001 for 3.40.1.
    static let versionNumber: CInt = sqlite3_libversion_number()

    /// `sqlite3_libversion()`, such as "3.40.1".
    static let version: String = String(cString: sqlite3_libversion())

    /// The compile options of the linked library, without the `SQLITE_` prefix.
    static let compileOptions: Set<String> = {
        var options: Set<String> = []
        var i: CInt = 0
        while let option = sqlite3_compileoption_get(i) {
            options.insert(String(cString: option))
            i += 1
        }
        return options
    }()

    /// Whether the linked library is at least the given version.
    static func isAtLeast(_ major: Int, _ minor: Int, _ patch: Int = 0) -> Bool {
        Int(versionNumber) >= major * 1_000_000 + minor * 1_000 + patch
    }

    /// Whether the library was compiled with the option (`"ENABLE_FTS5"`).
    static func hasCompileOption(_ name: String) -> Bool {
        compileOptions.contains(name) || compileOptions.contains { $0.hasPrefix(name + "=") }
    }

    /// Throws a clear error when the linked SQLite is older than needed.
    ///
    /// - Parameter feature: a short description such as "RETURNING clause".
    static func require(_ feature: String, _ major: Int, _ minor: Int, _ patch: Int = 0) throws {
        if !isAtLeast(major, minor, patch) {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(feature) requires SQLite \(major).\(minor).\(patch) or newer (linked SQLite is \(version))")
        }
    }
}
