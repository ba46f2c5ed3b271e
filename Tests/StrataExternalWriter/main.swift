// The other process of the tests of external changes
// (Tests/StrataTests/Observation/ExternalChanges): it writes to, reads from,
// and observes a database file that the test process observes. The tests
// find it beside their own binary (`ExternalWriterProcess` in the test kit).
//
//     strata-external-writer exec PATH write:SQL rollback:SQL read:SQL ...
//         Runs each step in its own access of a DatabaseQueue, in order.
//     strata-external-writer stress PATH COUNT MINE THEIRS
//         Opens a pool that observes external changes, observes the row
//         count of THEIRS, inserts COUNT rows in MINE, one transaction each,
//         then waits until the observed count is COUNT, and prints
//         "observed=N fresh=M" (the last observed value and a fresh fetch).
//     strata-external-writer write-for PATH SECONDS TABLE
//         Prints "opening", opens a DatabaseQueue whose configuration only
//         turns observesExternalChanges on (the default busy mode), inserts
//         rows in TABLE, one transaction each, until SECONDS have passed,
//         and prints "inserted=N".
//     strata-external-writer apply PATH SOURCE
//         Writes SOURCE over PATH as a replica's follower does
//         (FollowerApply.swift).

import Dispatch
import Foundation
import Strata

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

func run() throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 3 else { fail("usage: strata-external-writer exec|stress|apply PATH ...") }
    let path = arguments[2]
    if arguments[1] == "apply" {
        guard arguments.count == 4 else { fail("usage: apply PATH SOURCE") }
        applyLikeAFollower(path: path, source: arguments[3])
        return
    }
    if arguments[1] == "write-for" {
        guard arguments.count == 5, let seconds = Double(arguments[3]) else {
            fail("usage: write-for PATH SECONDS TABLE")
        }
        try writeSteadily(path: path, seconds: seconds, table: arguments[4])
        return
    }
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    switch arguments[1] {
    case "exec":
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        for step in arguments.dropFirst(3) {
            guard let colon = step.firstIndex(of: ":") else { fail("no operation in \(step)") }
            let sql = String(step[step.index(after: colon)...])
            switch step[..<colon] {
            case "write":
                try dbQueue.write { try $0.execute(sql: sql) }
            case "rollback":
                try dbQueue.inTransaction { db in
                    try db.execute(sql: sql)
                    return .rollback
                }
            case "read":
                _ = try dbQueue.read { try Row.fetchAll($0, sql: sql) }
            default:
                fail("unknown operation in \(step)")
            }
        }
        print("done")
    case "stress":
        guard arguments.count == 6, let count = Int(arguments[3]) else { fail("usage: stress PATH COUNT MINE THEIRS") }
        let mine = arguments[4]
        let theirs = arguments[5]
        configuration.observesExternalChanges = true
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        let reachedCount = DispatchSemaphore(value: 0)
        // The last value: only touched on the observation's serial queue.
        let observationQueue = DispatchQueue(label: "observation")
        nonisolated(unsafe) var lastValue = -1
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(theirs)") ?? 0
        }
        let cancellable = observation.start(
            in: dbPool, scheduling: .async(onQueue: observationQueue),
            onError: { fail("observation error: \($0)") },
            onChange: { value in
                lastValue = value
                if value == count { reachedCount.signal() }
            })
        for index in 0..<count {
            try dbPool.write { try $0.execute(sql: "INSERT INTO \(mine) (value) VALUES (?)", arguments: [index]) }
        }
        if reachedCount.wait(timeout: .now() + 30) == .timedOut {
            fail("timed out: observed \(observationQueue.sync { lastValue }) rows of \(theirs), expected \(count)")
        }
        cancellable.cancel()
        let fresh = try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(theirs)") ?? 0 }
        print("observed=\(observationQueue.sync { lastValue }) fresh=\(fresh)")
    default:
        fail("unknown command \(arguments[1])")
    }
}

/// The `write-for` command: a process that writes steadily, with the
/// default settings but observesExternalChanges.
func writeSteadily(path: String, seconds: Double, table: String) throws {
    var configuration = Configuration()
    configuration.observesExternalChanges = true
    // Unbuffered: the test waits for this line while it holds a lock.
    FileHandle.standardOutput.write(Data("opening\n".utf8))
    let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    var inserted = 0
    while clock.now < deadline {
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO \(table) (value) VALUES (?)", arguments: [inserted])
        }
        inserted += 1
    }
    FileHandle.standardOutput.write(Data("inserted=\(inserted)\n".utf8))
}

do {
    try run()
} catch {
    fail("error: \(error)")
}
