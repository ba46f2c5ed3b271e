import Testing

@testable import Strata
import StrataTestSupport

struct SQLiteLibraryInternalTests {
    @Test func versionAndCompileOptions() {
        #expect(SQLiteLibrary.versionNumber == Database.sqliteLibVersionNumber)
        #expect(SQLiteLibrary.isAtLeast(3, 0))
        #expect(!SQLiteLibrary.isAtLeast(99, 0))
        #expect(!SQLiteLibrary.version.isEmpty)
        #expect(SQLiteLibrary.hasCompileOption("THREADSAFE"))
        #expect(!SQLiteLibrary.hasCompileOption("THREAD"))
    }

    @Test func versionStrings() {
        #expect(SQLiteLibrary.versionString(3_040_001) == "3.40.1")
        #expect(SQLiteLibrary.versionNumber("3.40.1") == 3_040_001)
        #expect(SQLiteLibrary.versionNumber("3.30") == 3_030_000)
        #expect(SQLiteLibrary.versionNumber("3") == nil)
        #expect(SQLiteLibrary.versionNumber("3.x.0") == nil)
    }

    @Test("a connection reads its features once, at the first check, then tests a bit")
    func featuresAreCheckedOncePerConnection() throws {
        try DatabaseQueue().inDatabase { db in
            #expect(!db.sqliteFeatureCache.isComputed)
            #expect(db.sqliteFeatureCache.availableBits == 0)
            try db.requireSQLiteFeature(.returning)
            #expect(db.sqliteFeatureCache.isComputed)
            let bits = db.sqliteFeatureCache.availableBits
            let expected = SQLiteFeature.allCases.filter { db.linkedSQLite.isAvailable($0) }.reduce(0) { $0 | $1.bit }
            #expect(bits == expected)
            try db.requireSQLiteFeature(.upsert)
            #expect(db.sqliteFeatureCache.availableBits == bits)
            // Lowering starts over, from the lowered facts.
            db.lowerSQLiteForTesting(version: "3.30.0")
            #expect(!db.sqliteFeatureCache.isComputed)
            #expect(!db.isSQLiteFeatureAvailable(.returning))
            #expect(db.sqliteFeatureCache.availableBits & SQLiteFeature.upsert.bit != 0)
        }
    }
}
