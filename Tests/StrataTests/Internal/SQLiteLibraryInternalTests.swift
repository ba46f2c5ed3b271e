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
    }

    @Test func missingFeaturesNameTheVersionTheyNeed() {
        do {
            try SQLiteLibrary.require("Imaginary feature", 99, 1)
            Issue.record("Expected error")
        } catch let error as DatabaseError {
            #expect(error.message?.contains("Imaginary feature requires SQLite 99.1.0 or newer") == true)
            #expect(error.message?.contains(SQLiteLibrary.version) == true)
        } catch {
            Issue.record("Unexpected error \(error)")
        }
        #expect(throws: Never.self) { try SQLiteLibrary.require("RETURNING clause", 3, 35) }
    }
}
