import Dispatch
import StrataSQLite

/// The floor of the live queries' cost on the writer: the same fetches at
/// the same pace, written in C with nothing around them. On its own
/// connection, every `interval` (the display pacing's maximum delay), one
/// read transaction runs the query `count` times (each statement prepared,
/// stepped and finalized, as an observation's fetch is), and one block on
/// the main queue receives the values. What the writer loses to this is
/// what any library loses on this machine to fetches of that frequency.
final class RawFetchFloor: @unchecked Sendable {
    private let connection: OpaquePointer
    private let count: Int
    private let timer: any DispatchSourceTimer
    private let queue = DispatchQueue(label: "RawFetchFloor")

    init(path: String, count: Int, interval: DispatchTimeInterval) {
        var connection: OpaquePointer?
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let connection
        else { fatalError("cannot open \(path)") }
        self.connection = connection
        self.count = count
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .microseconds(50))
        timer.setEventHandler { [unowned self] in fetch() }
        timer.activate()
    }

    func stop() {
        timer.cancel()
        queue.sync {}
        sqlite3_close_v2(connection)
    }

    private func fetch() {
        sqlite3_exec(connection, "BEGIN", nil, nil, nil)
        var values: [Int64] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            var statement: OpaquePointer?
            sqlite3_prepare_v3(connection, "SELECT MAX(version) FROM t", -1, 0, &statement, nil)
            if sqlite3_step(statement) == SQLITE_ROW { values.append(sqlite3_column_int64(statement, 0)) }
            sqlite3_finalize(statement)
        }
        sqlite3_exec(connection, "COMMIT", nil, nil, nil)
        DispatchQueue.main.async { [values] in withExtendedLifetime(values) {} }
    }
}
