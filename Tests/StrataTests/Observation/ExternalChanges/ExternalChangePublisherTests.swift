#if canImport(Combine)
    import Combine
#elseif OpenCombine
    import OpenCombine
    import OpenCombineDispatch
#endif

#if canImport(Combine) || OpenCombine
    import Dispatch
    import Foundation
    import Strata
    import StrataTestSupport
    import Testing

    /// The publishers of value and region observations notice the commits of
    /// another process (Combine, or OpenCombine with the trait).
    @Suite("External changes: publishers")
    struct ExternalChangePublisherTests {
        @Test(
            "The publishers of a value observation and of a region observation see each commit of another process",
            arguments: ExternalChangeWriter.allCases)
        func publishers(_ kind: ExternalChangeWriter) async throws {
            let directory = try TemporaryDirectory()
            let (writer, path) = try kind.open(directory)
            let recorder = externalPlayerCount.publisher(
                in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values"))
            )
            .subscribeRecorder()
            defer { recorder.cancel() }
            let counts = Waitable<[Int]>([])
            let cancellable = appendPlayerCountAfterEachCommit(in: writer, to: counts)
            defer { cancellable.cancel() }
            try await recorder.waitForValues(1)
            try await insertPlayersFromAnotherProcess(path) { count in
                try await recorder.waitForValues(count + 1)
                try await counts.wait("\(count) changes") { $0.last == count }
            }
            #expect(recorder.values == [0, 1, 2, 3])
            #expect(counts.value == [1, 2, 3])
        }
    }
#endif
