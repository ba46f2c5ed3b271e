import Dispatch
import Foundation

/// The pool workload, shared by C, Strata and GRDB: `readers` threads each
/// run `scan` `scans` times while one writer thread runs `writeBatch` until
/// the readers are done (or exactly `batches` times, when given: a
/// deterministic amount of work, for callgrind).
///
/// Every closure runs on a thread of its own (not on Dispatch's global queue,
/// which may not start a third thread on a 2-core machine while two are busy).
///
/// - Parameters:
///   - scan: reads the table once, on the reader thread given by index, and
///     returns the number of rows read.
///   - writeBatch: writes one batch, in one transaction.
/// - Returns: the rows read and the batches written.
public func readersDuringWrites(
    readers: Int = 2,
    scans: Int,
    batches: Int? = nil,
    scan: @escaping @Sendable (_ reader: Int) throws -> Int,
    writeBatch: @escaping @Sendable () throws -> Void
) throws -> (rows: Int, batches: Int) {
    let state = PoolWorkloadState()
    let group = DispatchGroup()
    func spawn(_ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread.detachNewThread {
            body()
            group.leave()
        }
    }
    spawn {
        while true {
            let done = state.withLock { values in
                if let batches { values.batches >= batches } else { values.readersDone == readers }
            }
            if done { return }
            do {
                try writeBatch()
                state.withLock { $0.batches += 1 }
            } catch {
                state.withLock { $0.error = error }
                return
            }
        }
    }
    for reader in 0..<readers {
        spawn {
            defer { state.withLock { $0.readersDone += 1 } }
            for _ in 0..<scans {
                do {
                    let rows = try scan(reader)
                    state.withLock { $0.rows += rows }
                } catch {
                    state.withLock { $0.error = error }
                    return
                }
            }
        }
    }
    group.wait()
    return try state.withLock { values in
        if let error = values.error { throw error }
        return (values.rows, values.batches)
    }
}

/// The counters of ``readersDuringWrites(readers:scans:batches:scan:writeBatch:)``.
private final class PoolWorkloadState: @unchecked Sendable {
    struct Values {
        var rows = 0
        var batches = 0
        var readersDone = 0
        var error: (any Error)?
    }

    private let lock = NSLock()
    private var values = Values()

    func withLock<T>(_ body: (inout Values) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&values)
    }
}
