import Foundation
import Strata
import StrataTestSupport
import Testing

/// Two processes write and observe each other.
@Suite("External changes: stress")
struct ExternalChangeStressTests {
    @Test("Two processes each write 1,000 transactions while each observes the other: the last values are fresh")
    func twoProcessesObserveEachOther() async throws {
        let count = 1000
        let directory = try TemporaryDirectory()
        let (writer, path) = try ExternalChangeWriter.poolWAL.open(directory)
        try await writer.write { db in
            try db.execute(sql: "CREATE TABLE mine(value); CREATE TABLE theirs(value)")
        }
        let values = ObservedValues<Int>()
        let cancellable =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM theirs")! }
            .start(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")), recordingIn: values)
        await values.waitForValues(1)
        // The helper observes `mine` and writes `theirs`.
        let helper = try ExternalWriterProcess(["stress", path, "\(count)", "theirs", "mine"])
        for index in 0..<count {
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO mine (value) VALUES (?)", arguments: [index])
            }
        }
        #expect(await values.wait(timeout: .seconds(30)) { $0.last == count }, "last: \(values.values.last ?? -1)")
        let output = try await helper.waitForExit()
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "observed=\(count) fresh=\(count)")
        let fresh = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM theirs")! }
        #expect(values.values.last == fresh)
        cancellable.cancel()
    }
}
