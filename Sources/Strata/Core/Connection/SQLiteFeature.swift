/// A feature of SQLite that some of Strata's API needs, and that an older
/// SQLite, or one compiled without some option, lacks.
///
/// Strata checks the feature before it runs SQL that needs it, once per
/// connection, and throws a ``DatabaseError`` that names the feature, what it
/// needs and the SQLite at hand, instead of SQLite's "no such function" or
/// "syntax error". ``Database/linkedSQLite`` tells which features the linked
/// SQLite has; ``Database/requireSQLiteFeature(_:)`` checks one before your own
/// SQL uses it.
public enum SQLiteFeature: CaseIterable, Sendable, CustomStringConvertible {
    /// `INSERT ... ON CONFLICT DO UPDATE` (SQLite 3.24.0): the `upsert`
    /// methods of records.
    case upsert
    /// The `RETURNING` clause (SQLite 3.35.0): `insertAndFetch`,
    /// `updateAndFetch`, `saveAndFetch`, `upsertAndFetch`, `upsert`, and the
    /// `deleteAndFetch` and `updateAndFetch` methods of requests.
    case returning
    /// The JSON functions (`JSON_EXTRACT`, `JSON_OBJECT`...): built in from
    /// SQLite 3.38.0, and before it in libraries compiled with
    /// `SQLITE_ENABLE_JSON1`. The JSON functions of ``Database``.
    case jsonFunctions
    /// The `->` and `->>` operators (SQLite 3.38.0): the subscripts of
    /// ``SQLJSONExpressible`` and ``JSONColumn``, and
    /// `jsonRepresentation(atPath:)`.
    case jsonOperators
    /// The JSONB functions (`JSONB`, `JSONB_EXTRACT`...), SQLite 3.45.0.
    /// Strata has no API that writes them: check it before your own SQL does.
    case jsonb
    /// The math functions (`ln`, `pow`, `sqrt`...): SQLite 3.35.0 compiled
    /// with `SQLITE_ENABLE_MATH_FUNCTIONS`. For your own SQL.
    case mathFunctions
    /// The `unixepoch()` function, SQLite 3.38.0 (the `'unixepoch'` date
    /// modifier of ``SQLDateModifier`` works with any SQLite). For your own SQL.
    case unixEpochFunction
    /// Window functions (`OVER`), SQLite 3.25.0. For your own SQL.
    case windowFunctions
    /// The FTS5 full-text engine, compiled in with `SQLITE_ENABLE_FTS5`:
    /// ``FTS5`` tables, tokenizers and patterns.
    case fts5
    /// The session extension (changesets), compiled in with
    /// `SQLITE_ENABLE_SESSION` and `SQLITE_ENABLE_PREUPDATE_HOOK`.
    case sessionExtension
    /// Pre-update hooks, compiled in with `SQLITE_ENABLE_PREUPDATE_HOOK`:
    /// `TransactionObserver.databaseWillChange(with:)` hears of changes only
    /// where they exist.
    case preUpdateHook
    /// WAL snapshots (`sqlite3_snapshot_*`), compiled in with
    /// `SQLITE_ENABLE_SNAPSHOT`: what snapshot pools need.
    case walSnapshots
    /// `STRICT` tables (SQLite 3.37.0): `create(table:options: .strict)`.
    case strictTables
    /// Generated columns (SQLite 3.31.0): `generatedAs(_:_:)` in table definitions.
    case generatedColumns
    /// `ALTER TABLE ... RENAME COLUMN` (SQLite 3.25.0): `rename(column:to:)`
    /// in `alter(table:)`.
    case renameColumn
    /// `ALTER TABLE ... DROP COLUMN` (SQLite 3.35.0): `drop(column:)` in
    /// `alter(table:)`.
    case dropColumn

    /// Whether a feature is available, and if not, why.
    public enum Availability: Sendable, Equatable {
        /// The linked SQLite has the feature.
        case available
        /// The linked SQLite lacks the feature; `reason` says what it needs
        /// and what the linked SQLite is.
        case unavailable(reason: String)
    }

    /// The feature's name, as error messages and ``LinkedSQLite`` print it.
    public var description: String {
        switch self {
        case .upsert: "UPSERT (ON CONFLICT DO UPDATE)"
        case .returning: "RETURNING clause"
        case .jsonFunctions: "JSON functions"
        case .jsonOperators: "JSON operators -> and ->>"
        case .jsonb: "JSONB functions"
        case .mathFunctions: "math functions"
        case .unixEpochFunction: "unixepoch() function"
        case .windowFunctions: "window functions"
        case .fts5: "FTS5"
        case .sessionExtension: "session extension"
        case .preUpdateHook: "pre-update hooks"
        case .walSnapshots: "WAL snapshots"
        case .strictTables: "STRICT tables"
        case .generatedColumns: "generated columns"
        case .renameColumn: "RENAME COLUMN"
        case .dropColumn: "DROP COLUMN"
        }
    }

    /// The oldest SQLite version that has the feature, such as "3.35.0", or
    /// nil when any version has it given the compile options.
    public var minimumVersion: String? {
        minimumVersionNumber.map(SQLiteLibrary.versionString)
    }

    /// The compile options the feature needs, without the `SQLITE_` prefix
    /// (`["ENABLE_FTS5"]`). The JSON functions need `ENABLE_JSON1` only
    /// before SQLite 3.38.0, where they became built in: it is not listed.
    public var requiredCompileOptions: [String] {
        switch self {
        case .mathFunctions: ["ENABLE_MATH_FUNCTIONS"]
        case .fts5: ["ENABLE_FTS5"]
        case .sessionExtension: ["ENABLE_SESSION", "ENABLE_PREUPDATE_HOOK"]
        case .preUpdateHook: ["ENABLE_PREUPDATE_HOOK"]
        case .walSnapshots: ["ENABLE_SNAPSHOT"]
        default: []
        }
    }

    /// `sqlite3_libversion_number()` of ``minimumVersion``.
    var minimumVersionNumber: Int? {
        switch self {
        case .upsert: 3_024_000
        case .returning: 3_035_000
        case .jsonFunctions: 3_038_000
        case .jsonOperators: 3_038_000
        case .jsonb: 3_045_000
        case .mathFunctions: 3_035_000
        case .unixEpochFunction: 3_038_000
        case .windowFunctions: 3_025_000
        case .strictTables: 3_037_000
        case .generatedColumns: 3_031_000
        case .renameColumn: 3_025_000
        case .dropColumn: 3_035_000
        case .fts5, .sessionExtension, .preUpdateHook, .walSnapshots: nil
        }
    }

    /// The feature's bit in a connection's cache of available features.
    var bit: UInt32 {
        switch self {
        case .upsert: 1 << 0
        case .returning: 1 << 1
        case .jsonFunctions: 1 << 2
        case .jsonOperators: 1 << 3
        case .jsonb: 1 << 4
        case .mathFunctions: 1 << 5
        case .unixEpochFunction: 1 << 6
        case .windowFunctions: 1 << 7
        case .fts5: 1 << 8
        case .sessionExtension: 1 << 9
        case .preUpdateHook: 1 << 10
        case .walSnapshots: 1 << 11
        case .strictTables: 1 << 12
        case .generatedColumns: 1 << 13
        case .renameColumn: 1 << 14
        case .dropColumn: 1 << 15
        }
    }

    /// What a library lacks for a feature: the needs it misses, and what
    /// it is instead.
    struct Shortfall {
        /// "SQLite 3.45.0 or newer", "compile option SQLITE_ENABLE_SNAPSHOT".
        var needs: [String] = []
        /// The linked version, when it is too old.
        var tooOldVersion: String?
        /// The required options that the library lacks (`SQLITE_` prefixed).
        var lackedOptions: [String] = []
        /// The options that remove the feature and the library has.
        var omittingOptions: [String] = []

        /// "compiled without SQLITE_X, compiled with SQLITE_OMIT_Y".
        var compilation: [String] {
            (lackedOptions.isEmpty ? [] : ["compiled without " + lackedOptions.joined(separator: ", ")])
                + (omittingOptions.isEmpty ? [] : ["compiled with " + omittingOptions.joined(separator: ", ")])
        }
    }

    /// What a library with these facts lacks for the feature; nil when it has it.
    func shortfall(in facts: SQLiteLibrary.Facts) -> Shortfall? {
        var shortfall = Shortfall()
        // Before 3.38.0, the JSON functions exist in libraries built with JSON1.
        if let minimum = minimumVersionNumber, facts.versionNumber < minimum,
            !(self == .jsonFunctions && facts.hasCompileOption("ENABLE_JSON1"))
        {
            let version = SQLiteLibrary.versionString(minimum)
            shortfall.needs.append(
                self == .jsonFunctions
                    ? "SQLite \(version) or newer, or SQLITE_ENABLE_JSON1 before it" : "SQLite \(version) or newer")
            shortfall.tooOldVersion = facts.version
        }
        shortfall.lackedOptions = requiredCompileOptions.filter { !facts.hasCompileOption($0) }.map { "SQLITE_" + $0 }
        if !shortfall.lackedOptions.isEmpty {
            shortfall.needs.append("compile option " + shortfall.lackedOptions.joined(separator: " and "))
        }
        shortfall.omittingOptions = omittingCompileOptions.filter { facts.hasCompileOption($0) }.map { "SQLITE_" + $0 }
        if !shortfall.omittingOptions.isEmpty {
            shortfall.needs.append("a library compiled without " + shortfall.omittingOptions.joined(separator: ", "))
        }
        return shortfall.needs.isEmpty ? nil : shortfall
    }

    /// Whether a library with these facts has the feature, and if not, why:
    /// "requires SQLite 3.45.0 or newer; the linked SQLite is 3.40.1".
    func availability(in facts: SQLiteLibrary.Facts) -> Availability {
        guard let shortfall = shortfall(in: facts) else { return .available }
        let present = (["the linked SQLite is \(facts.version)"] + shortfall.compilation).joined(separator: ", ")
        return .unavailable(reason: "requires " + shortfall.needs.joined(separator: " and ") + "; " + present)
    }

    /// Compile options that remove the feature from a library that would have it.
    private var omittingCompileOptions: [String] {
        switch self {
        case .jsonFunctions, .jsonOperators, .jsonb: ["OMIT_JSON"]
        case .windowFunctions: ["OMIT_WINDOWFUNC"]
        default: []
        }
    }
}

/// What a connection knows of the SQLite library it runs on: its version,
/// its compile options, and which ``SQLiteFeature``s it has.
///
/// ```swift
/// let sqlite = try dbQueue.read { db in db.linkedSQLite }
/// print(sqlite)
/// if !sqlite.isAvailable(.jsonb) { /* store JSON text */ }
/// ```
public struct LinkedSQLite: Sendable, CustomStringConvertible {
    /// The version, such as "3.40.1" (`sqlite3_libversion()`).
    public let version: String

    /// The version number, such as 3040001 (`sqlite3_libversion_number()`).
    public let versionNumber: Int

    /// The compile options, sorted, without the `SQLITE_` prefix, such as
    /// "ENABLE_FTS5" or "MAX_COLUMN=2000" (`sqlite3_compileoption_get()`).
    public let compileOptions: [String]

    private let availabilities: [Availability]

    private struct Availability: Sendable {
        var feature: SQLiteFeature
        var availability: SQLiteFeature.Availability
        /// For the description: "SQLite 3.45.0: the linked SQLite is 3.40.1".
        var summary: String
    }

    init(_ facts: SQLiteLibrary.Facts) {
        version = facts.version
        versionNumber = facts.versionNumber
        compileOptions = facts.compileOptions.sorted()
        availabilities = SQLiteFeature.allCases.map { feature in
            var summary = Self.needs(feature)
            if let shortfall = feature.shortfall(in: facts) {
                var lacks = shortfall.tooOldVersion.map { ["the linked SQLite is \($0)"] } ?? []
                if !shortfall.lackedOptions.isEmpty {
                    let all = shortfall.lackedOptions.count == feature.requiredCompileOptions.count
                    lacks.append(
                        all ? "not compiled in" : "compiled without " + shortfall.lackedOptions.joined(separator: ", "))
                }
                if !shortfall.omittingOptions.isEmpty {
                    lacks.append("compiled with " + shortfall.omittingOptions.joined(separator: ", "))
                }
                summary += ": " + lacks.joined(separator: ", ")
            }
            return Availability(feature: feature, availability: feature.availability(in: facts), summary: summary)
        }
    }

    /// Whether the feature is available, and if not, why.
    public func availability(of feature: SQLiteFeature) -> SQLiteFeature.Availability {
        availabilities.first { $0.feature == feature }!.availability
    }

    /// Whether the feature is available.
    public func isAvailable(_ feature: SQLiteFeature) -> Bool {
        availability(of: feature) == .available
    }

    /// The version, the features (available or not, and what each needs),
    /// and the compile options, one block each.
    public var description: String {
        var lines = ["SQLite \(version) (\(versionNumber))", "Features:"]
        let width = SQLiteFeature.allCases.map(\.description.count).max() ?? 0
        for entry in availabilities {
            let description = entry.feature.description
            let name = description + String(repeating: " ", count: width - description.count)
            let available = entry.availability == .available
            lines.append("  \(available ? "yes" : "no ")  \(name)  \(entry.summary)")
        }
        lines.append("Compile options:")
        var line = " "
        for option in compileOptions {
            if line.count + 1 + option.count > 80 {
                lines.append(line)
                line = " "
            }
            line += " " + option
        }
        if line != " " { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// What a feature needs, for the description: "SQLite 3.35.0 +
    /// SQLITE_ENABLE_MATH_FUNCTIONS".
    private static func needs(_ feature: SQLiteFeature) -> String {
        if feature == .jsonFunctions { return "SQLite 3.38.0, or SQLITE_ENABLE_JSON1 before" }
        var needs: [String] = []
        if let version = feature.minimumVersion { needs.append("SQLite \(version)") }
        needs += feature.requiredCompileOptions.map { "SQLITE_" + $0 }
        return needs.joined(separator: " + ")
    }
}
