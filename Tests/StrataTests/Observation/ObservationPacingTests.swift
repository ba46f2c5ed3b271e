import Foundation
import Strata
import StrataTestSupport
import Testing

/// `ValueObservation.paced(_:)`: fewer fetches than commits while the
/// writer is busy, a fetch at once after a pause, and every commit seen by
/// the last value (issue 50). The pacings are chosen so that a slow machine
/// can't change what is checked: commits made in one access follow each
/// other within microseconds, and the waits that are the subject of a test
/// are long against them.
@Suite("Observation pacing")
struct ObservationPacingTests {
    /// A counter table, with its row.
    private func makeCounter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.open(directory)
        try writer.write { db in try db.execute(sql: "CREATE TABLE counter(n); INSERT INTO counter VALUES (0)") }
        return writer
    }

    /// A paced observation of the counter, which counts its fetches, once
    /// its initial value (0) has come.
    private struct PacedCounter {
        let directory: TemporaryDirectory
        let writer: any DatabaseWriter
        let fetches = Waitable(0)
        let values = ObservedValues<Int>()
        var cancellable: AnyDatabaseCancellable?
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private func startCounter(_ kind: WriterKind, _ pacing: ObservationPacing) async throws -> PacedCounter {
        let directory = try TemporaryDirectory()
        var counter = PacedCounter(directory: directory, writer: try makeCounter(kind, directory))
        let fetches = counter.fetches
        counter.cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT n FROM counter")! }
            .handleEvents(willFetch: { fetches.update { $0 += 1 } })
            .paced(pacing)
            .start(in: counter.writer, scheduling: .async(onQueue: .main), recordingIn: counter.values)
        await counter.values.waitForValues(1)
        return counter
    }

    /// Makes `count` commits in one write access: they follow each other
    /// within microseconds.
    private func commitBurst(_ writer: any DatabaseWriter, count: Int) throws {
        try writer.writeWithoutTransaction { db in
            for _ in 0..<count {
                try db.inTransaction {
                    try db.execute(sql: "UPDATE counter SET n = n + 1")
                    return .commit
                }
            }
        }
    }

    @Test("A burst of commits is fetched once, after it", arguments: WriterKind.allCases)
    func burstIsFetchedOnce(_ kind: WriterKind) async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        // A quiet period longer than the burst: the commits that come
        // during it make the fetch wait for the next look, after the last
        // commit. No deadline within the test, and no fetch at once, however
        // late the burst starts.
        let counter = try await startCounter(
            kind, ObservationPacing(quietPeriod: .milliseconds(200), maximumDelay: .seconds(600)))
        try commitBurst(counter.writer, count: 50)
        #expect(await counter.values.wait { $0.last == 50 })
        #expect(counter.values.values == [0, 50])
        #expect(counter.fetches.value == 2)
    }

    @Test("A commit after a pause of the maximum delay is fetched at once; the next one waits")
    func commitAfterPauseIsFetchedAtOnce() async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        // A queue fetches on its writer: a fetch at once runs before the
        // write access returns.
        let counter = try await startCounter(
            .queue, ObservationPacing(quietPeriod: .milliseconds(500), maximumDelay: .milliseconds(500)))
        let (writer, fetches, values) = (counter.writer, counter.fetches, counter.values)
        // The pause is the subject of the test. Its end is an event: the
        // value of another observation, with the same pacing, of a commit to
        // a table the counter's does not read, made after the counter's
        // last fetch. That value comes once the writer has been quiet for
        // the quiet period, which is the maximum delay.
        try await writer.write { db in try db.execute(sql: "CREATE TABLE tick(n)") }
        let ticks = ObservedValues<Int>()
        let clock = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tick")! }
            .paced(ObservationPacing(quietPeriod: .milliseconds(500), maximumDelay: .milliseconds(500)))
            .start(in: writer, scheduling: .async(onQueue: .main), recordingIn: ticks)
        await ticks.waitForValues(1)
        try await writer.write { db in try db.execute(sql: "INSERT INTO tick VALUES (1)") }
        #expect(await ticks.wait { $0.last == 1 })
        clock.cancel()
        #expect(fetches.value == 1)
        // The two commits below follow each other by much less than the
        // maximum delay.
        try commitBurst(writer, count: 1)
        #expect(fetches.value == 2)
        // Too soon after that fetch: held by the pacer.
        try commitBurst(writer, count: 1)
        #expect(fetches.value == 2)
        #expect(await values.wait { $0.last == 2 })
        #expect(fetches.value == 3)
        #expect(values.values == [0, 1, 2])
        withExtendedLifetime(counter) {}
    }

    @Test(
        "Once the writer pauses for the quiet period, the fetch does not wait for the maximum delay",
        arguments: WriterKind.allCases)
    func quietWriterIsFetchedSoon(_ kind: WriterKind) async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        // A maximum delay longer than the test's wait: the value can only
        // come from the quiet period.
        let counter = try await startCounter(
            kind, ObservationPacing(quietPeriod: .milliseconds(20), maximumDelay: .seconds(600)))
        try commitBurst(counter.writer, count: 1)
        #expect(await counter.values.wait(timeout: .seconds(30)) { $0.last == 1 })
        #expect(counter.fetches.value == 2)
    }

    @Test("While the writer never pauses, values still come, at the maximum delay", arguments: WriterKind.allCases)
    func busyWriterStillGetsValues(_ kind: WriterKind) async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        let counter = try await startCounter(
            kind, ObservationPacing(quietPeriod: .milliseconds(10), maximumDelay: .milliseconds(100)))
        let (writer, fetches, values) = (counter.writer, counter.fetches, counter.values)
        // Writes until three values arrived during the writes (bounded).
        let writes = Task.detached {
            var commits = 0
            let deadline = ContinuousClock.now + .seconds(20)
            while values.values.count < 4, ContinuousClock.now < deadline {
                try commitBurst(writer, count: 10)
                commits += 10
            }
            return commits
        }
        let commits = try await writes.value
        #expect(values.values.count >= 4)
        #expect(await values.wait { $0.last == commits })
        #expect(values.values == values.values.sorted())
        #expect(fetches.value < commits)
        withExtendedLifetime(counter) {}
    }

    @Test("A region that changes is paced too, and followed", arguments: WriterKind.allCases)
    func changingRegion(_ kind: WriterKind) async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        let directory = try TemporaryDirectory()
        let writer = try makeCounter(kind, directory)
        try await writer.write { db in
            try db.execute(sql: "CREATE TABLE flag(useOther); INSERT INTO flag VALUES (0)")
            try db.execute(sql: "CREATE TABLE other(n); INSERT INTO other VALUES (100)")
        }
        // Reads `counter` or `other`, depending on `flag`.
        let observation = ValueObservation.tracking { db -> Int in
            let useOther = try Bool.fetchOne(db, sql: "SELECT useOther FROM flag")!
            return try Int.fetchOne(db, sql: useOther ? "SELECT n FROM other" : "SELECT n FROM counter")!
        }
        let values = ObservedValues<Int>()
        let cancellable =
            observation
            .paced(ObservationPacing(quietPeriod: .milliseconds(20), maximumDelay: .milliseconds(200)))
            .start(in: writer, scheduling: .async(onQueue: .main), recordingIn: values)
        await values.waitForValues(1)
        try commitBurst(writer, count: 5)
        #expect(await values.wait { $0.last == 5 })
        try await writer.write { db in try db.execute(sql: "UPDATE flag SET useOther = 1") }
        #expect(await values.wait { $0.last == 100 })
        try await writer.write { db in try db.execute(sql: "UPDATE other SET n = 101") }
        #expect(await values.wait { $0.last == 101 })
        withExtendedLifetime(cancellable) {}
    }

    @Test("everyCommit: a queue fetches after each commit, before the access returns")
    func everyCommit() async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        let counter = try await startCounter(.queue, .everyCommit)
        for expected in 2...4 {
            try commitBurst(counter.writer, count: 1)
            #expect(counter.fetches.value == expected)
        }
        #expect(await counter.values.wait { $0.last == 3 })
    }

    @Test("Durations: a quiet period longer than the maximum delay, and negative ones")
    func durations() {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        let display = ObservationPacing.display
        #expect(display.quietPeriod == .microseconds(500))
        #expect(display.maximumDelay == .microseconds(16_667))
        #expect(ObservationPacing.everyCommit == ObservationPacing(quietPeriod: .zero, maximumDelay: .zero))
        // Kept as given; the pacer reads them clamped.
        let odd = ObservationPacing(quietPeriod: .seconds(5), maximumDelay: .seconds(-1))
        #expect(odd.quietPeriod == .seconds(5))
        #expect(odd.maximumDelay == .seconds(-1))
    }

    @Test("A negative maximum delay fetches after each commit")
    func negativeMaximumDelay() async throws {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return }
        let counter = try await startCounter(
            .queue, ObservationPacing(quietPeriod: .seconds(5), maximumDelay: .seconds(-1)))
        try commitBurst(counter.writer, count: 1)
        #expect(counter.fetches.value == 2)
    }
}
