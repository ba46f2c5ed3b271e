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

    /// The facts of the linked library, as connections believe them until a
    /// test lowers them (`Database.lowerSQLiteForTesting`).
    static let facts = Facts(
        versionNumber: Int(versionNumber), version: version, compileOptions: compileOptions)

    /// Whether the linked library is at least the given version.
    static func isAtLeast(_ major: Int, _ minor: Int, _ patch: Int = 0) -> Bool {
        Int(versionNumber) >= major * 1_000_000 + minor * 1_000 + patch
    }

    /// Whether the library was compiled with the option (`"ENABLE_FTS5"`).
    static func hasCompileOption(_ name: String) -> Bool {
        facts.hasCompileOption(name)
    }

    /// "3.35.0" for 3035000.
    static func versionString(_ number: Int) -> String {
        "\(number / 1_000_000).\(number / 1_000 % 1_000).\(number % 1_000)"
    }

    /// 3035000 for "3.35.0" (or "3.35"); nil when the text is not a version.
    static func versionNumber(_ string: String) -> Int? {
        let parts = string.split(separator: ".").map { Int($0) }
        guard (2...3).contains(parts.count), !parts.contains(nil) else { return nil }
        let numbers = parts.map { $0! } + [0]
        return numbers[0] * 1_000_000 + numbers[1] * 1_000 + numbers[2]
    }

    /// A version and compile options: those of the linked library, or less.
    struct Facts: Sendable {
        /// Such as 3040001.
        var versionNumber: Int
        /// Such as "3.40.1".
        var version: String
        /// Such as "ENABLE_FTS5" and "MAX_COLUMN=2000".
        var compileOptions: Set<String>
        /// The options without their values ("MAX_COLUMN").
        private var optionNames: Set<String>

        init(versionNumber: Int, version: String, compileOptions: Set<String>) {
            self.versionNumber = versionNumber
            self.version = version
            self.compileOptions = compileOptions
            self.optionNames = Set(compileOptions.map { String($0.prefix { $0 != "=" }) })
        }

        /// Whether the library was compiled with the option (`"ENABLE_FTS5"`).
        func hasCompileOption(_ name: String) -> Bool {
            optionNames.contains(name)
        }
    }
}
