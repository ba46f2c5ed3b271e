#if Fluent
    import FluentBenchmark
    import FluentKit
    import Foundation
    import NIOCore
    import NIOPosix
    import StrataFluent
    import StrataTestSupport
    import XCTest

    /// FluentKit's benchmark suite against the Strata driver: every test
    /// that fluent-sqlite-driver 4.9.0 runs against its own, unchanged, on
    /// two databases (the suite needs two), each a pool on a new file.
    final class FluentBenchmarkTests: XCTestCase {
        private var directory: TemporaryDirectory!
        private var databases: Databases!
        private var benchmarker: FluentBenchmarker { FluentBenchmarker(databases: databases) }

        override func setUpWithError() throws {
            directory = try TemporaryDirectory()
            databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
            databases.use(.strata(path: directory.path("default.sqlite")), as: .sqlite)
            databases.use(.strata(path: directory.path("benchmark.sqlite")), as: DatabaseID(string: "benchmark"))
        }

        override func tearDown() async throws {
            await databases.shutdownAsync()
            databases = nil
            directory = nil
        }

        func testAggregate() throws { try benchmarker.testAggregate() }
        func testArray() throws { try benchmarker.testArray() }
        func testBatch() throws { try benchmarker.testBatch() }
        func testChild() throws { try benchmarker.testChild() }
        func testChildren() throws { try benchmarker.testChildren() }
        func testCodable() throws { try benchmarker.testCodable() }
        func testChunk() throws { try benchmarker.testChunk() }
        func testCompositeID() throws { try benchmarker.testCompositeID() }
        func testCRUD() throws { try benchmarker.testCRUD() }
        func testEagerLoad() throws { try benchmarker.testEagerLoad() }
        func testEnum() throws { try benchmarker.testEnum() }
        func testFilter() throws { try benchmarker.testFilter() }
        func testGroup() throws { try benchmarker.testGroup() }
        func testID() throws { try benchmarker.testID() }
        func testJoin() throws { try benchmarker.testJoin() }
        func testMiddleware() throws { try benchmarker.testMiddleware() }
        func testMigrator() throws { try benchmarker.testMigrator() }
        func testModel() throws { try benchmarker.testModel() }
        func testOptionalParent() throws { try benchmarker.testOptionalParent() }
        func testPagination() throws { try benchmarker.testPagination() }
        func testParent() throws { try benchmarker.testParent() }
        func testPerformance() throws { try benchmarker.testPerformance() }
        func testRange() throws { try benchmarker.testRange() }
        func testSchema() throws { try benchmarker.testSchema() }
        func testSet() throws { try benchmarker.testSet() }
        func testSiblings() throws { try benchmarker.testSiblings() }
        func testSoftDelete() throws { try benchmarker.testSoftDelete() }
        func testSort() throws { try benchmarker.testSort() }
        func testSQL() throws { try benchmarker.testSQL() }
        func testTimestamp() throws { try benchmarker.testTimestamp() }
        func testTransaction() throws { try benchmarker.testTransaction() }
        func testUnique() throws { try benchmarker.testUnique() }
    }
#endif
