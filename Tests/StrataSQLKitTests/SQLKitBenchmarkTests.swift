#if SQLKit
    import Logging
    import NIOCore
    import NIOPosix
    import SQLKit
    import SQLKitBenchmark
    import Strata
    import StrataSQLKit
    import StrataTestSupport
    import Testing

    /// SQLKit's own suite (`SQLBenchmarker.runAllTests()`: planets, codable
    /// values, enums, upserts, unions and JSON paths), unchanged, against a
    /// queue and a pool.
    @Suite("SQLKit's benchmark suite")
    struct SQLKitBenchmarkTests {
        @Test("runAllTests passes", arguments: WriterKind.allCases)
        func runAllTests(kind: WriterKind) async throws {
            let fixture = try SQLKitFixture(kind)
            try await SQLBenchmarker(on: fixture.sql).runAllTests()
        }
    }
#endif
