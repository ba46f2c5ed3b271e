#if Metrics
    import CoreMetrics
    import Foundation
    import Metrics

    /// Sends the executions that ``StatementStatisticsCollector`` measures
    /// to swift-metrics, when ``Configuration/metrics`` is set too.
    ///
    /// Each statement's metrics carry the dimensions `statement` (its
    /// ``StatementStatistics/identifier``, a stable hash of its normalized
    /// SQL) and `table` (its ``StatementStatistics/tableName``, or empty):
    /// their number is bounded by the collector's
    /// ``StatementStatisticsCollector/maximumStatementCount``, and no
    /// argument ever becomes a label.
    struct StatementMetricsExporter: Sendable {
        /// The metrics of one statement.
        final class Handles: Sendable {
            let executions: Counter
            let failures: Counter
            let duration: Timer
            let rows: Counter
            let fullScanSteps: Counter
            let sorts: Counter
            let automaticIndexRows: Counter
            let virtualMachineSteps: Counter

            init(_ metrics: DatabaseMetrics, factory: any MetricsFactory, entry: StatementStatisticsEntry) {
                let label = metrics.label + ".statement"
                let dimensions =
                    metrics.dimensions + [("statement", entry.identifier), ("table", entry.tableName ?? "")]
                func counter(_ name: String) -> Counter {
                    Counter(label: "\(label).\(name)", dimensions: dimensions, factory: factory)
                }
                executions = counter("executions")
                failures = counter("failures")
                duration = Timer(label: "\(label).time", dimensions: dimensions, factory: factory)
                rows = counter("rows")
                fullScanSteps = counter("full_scan_steps")
                sorts = counter("sorts")
                automaticIndexRows = counter("automatic_index_rows")
                virtualMachineSteps = counter("vm_steps")
            }
        }

        let metrics: DatabaseMetrics
        let factory: any MetricsFactory

        init(_ metrics: DatabaseMetrics) {
            self.metrics = metrics
            self.factory = metrics.factory ?? MetricsSystem.factory
        }

        /// Sends what a statement ran since its last report (at the end of
        /// an access), and the durations of its timed executions.
        func export(
            _ entry: StatementStatisticsEntry, _ report: StatementStatisticsEntry.Report, _ durations: [UInt64]
        ) {
            let handles = self.handles(of: entry)
            if report.executionCount > 0 { handles.executions.increment(by: report.executionCount) }
            if report.failureCount > 0 { handles.failures.increment(by: report.failureCount) }
            for nanoseconds in durations { handles.duration.recordNanoseconds(Int64(clamping: nanoseconds)) }
            if report.rowCount > 0 { handles.rows.increment(by: report.rowCount) }
            if report.fullScanStepCount > 0 { handles.fullScanSteps.increment(by: report.fullScanStepCount) }
            if report.sortCount > 0 { handles.sorts.increment(by: report.sortCount) }
            if report.automaticIndexRowCount > 0 {
                handles.automaticIndexRows.increment(by: report.automaticIndexRowCount)
            }
            if report.virtualMachineStepCount > 0 {
                handles.virtualMachineSteps.increment(by: report.virtualMachineStepCount)
            }
        }

        /// The entry's handles for these metrics, made once per metrics
        /// label (the connections of a pool make their exporters apart).
        private func handles(of entry: StatementStatisticsEntry) -> Handles {
            entry.metricsHandles.withLock { stored in
                let byLabel = stored as? HandlesByLabel ?? HandlesByLabel()
                if let handles = byLabel.handles[metrics.label] { return handles }
                let handles = Handles(metrics, factory: factory, entry: entry)
                byLabel.handles[metrics.label] = handles
                stored = byLabel
                return handles
            }
        }

        /// The handles of an entry, by metrics label.
        final class HandlesByLabel: @unchecked Sendable {
            var handles: [String: Handles] = [:]
        }
    }
#endif
