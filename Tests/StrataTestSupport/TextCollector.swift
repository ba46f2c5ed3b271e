import Foundation

/// A `TextOutputStream` that keeps what is written to it, for the tests of
/// dumps, traces and logs. Writers on several threads may share it.
package final class TextCollector: TextOutputStream, @unchecked Sendable {
    private let writes = LockedBox<[String]>([])

    package init() {}

    /// Everything written so far.
    package var text: String { writes.value.joined() }

    /// Each call to `write`, in order.
    package var pieces: [String] { writes.value }

    package func write(_ string: String) {
        writes.append(string)
    }
}

extension TextCollector {
    /// Runs `body` with a new collector, and returns the text written to it.
    ///
    /// ```swift
    /// let text = try TextCollector.collect { try dbQueue.dumpSQL("SELECT 1", to: $0) }
    /// ```
    package static func collect(_ body: (TextCollector) throws -> Void) rethrows -> String {
        let collector = TextCollector()
        try body(collector)
        return collector.text
    }
}
