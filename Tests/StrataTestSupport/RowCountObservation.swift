import Foundation
import Strata

/// Starts a value observation of the number of rows in `table`, scheduled
/// asynchronously on a new dispatch queue named `queueLabel`, and records its
/// values and errors in `values`.
///
/// ```swift
/// let observed = ObservedValues<Int>()
/// let cancellable = observeRowCount(of: "player", in: dbPool, recordingIn: observed)
/// defer { cancellable.cancel() }
/// #expect(await observed.wait { $0 == [0] })
/// ```
package func observeRowCount(
    of table: String, in reader: any DatabaseReader, queueLabel: String = "observation",
    recordingIn values: ObservedValues<Int>
) -> AnyDatabaseCancellable {
    ValueObservation
        .tracking { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table)")! }
        .start(in: reader, scheduling: .async(onQueue: DispatchQueue(label: queueLabel)), recordingIn: values)
}
