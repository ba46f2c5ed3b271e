import CoreMetrics
import Synchronization

/// A small in-process metrics backend, enough to see what the server
/// records at `GET /metrics` without running Prometheus. A real deployment
/// bootstraps `MetricsSystem` with the backend it uses (swift-prometheus,
/// swift-otel...) instead: Strata and Hummingbird report through whatever it
/// is.
///
/// Counters add up, gauges and meters keep their last value, timers and
/// recorders keep their count, sum and maximum.
public final class TextMetrics: MetricsFactory, Sendable {
    private let metrics = Mutex<[String: Handler]>([:])

    public init() {}

    /// One line per metric, sorted, in the Prometheus text format (without
    /// types or help).
    public func render() -> String {
        let handlers = metrics.withLock { $0 }
        return handlers.keys.sorted().flatMap { key in handlers[key]!.lines(key) }.joined(separator: "\n") + "\n"
    }

    private func handler(_ kind: Handler.Kind, _ label: String, _ dimensions: [(String, String)]) -> Handler {
        var key = label.replacing(".", with: "_")
        if !dimensions.isEmpty {
            key += "{" + dimensions.map { "\($0.replacing(".", with: "_"))=\"\($1)\"" }.joined(separator: ",") + "}"
        }
        return metrics.withLock { metrics in
            if let handler = metrics[key] { return handler }
            let handler = Handler(kind)
            metrics[key] = handler
            return handler
        }
    }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        handler(.counter, label, dimensions)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        handler(aggregate ? .summary : .gauge, label, dimensions)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        handler(.timer, label, dimensions)
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        handler(.gauge, label, dimensions)
    }

    public func destroyCounter(_ handler: any CounterHandler) {}
    public func destroyRecorder(_ handler: any RecorderHandler) {}
    public func destroyTimer(_ handler: any TimerHandler) {}
    public func destroyMeter(_ handler: any MeterHandler) {}

    final class Handler: CounterHandler, RecorderHandler, TimerHandler, MeterHandler, Sendable {
        enum Kind { case counter, gauge, summary, timer }
        struct Values {
            var count: Int64 = 0
            var sum: Double = 0
            var max: Double = 0
            var last: Double = 0
        }
        let kind: Kind
        let values = Mutex(Values())

        init(_ kind: Kind) { self.kind = kind }

        func increment(by amount: Int64) { record(Double(amount)) }
        func reset() { values.withLock { $0 = Values() } }
        func record(_ value: Int64) { record(Double(value)) }
        func record(_ value: Double) {
            values.withLock { values in
                values.count += 1
                values.sum += value
                values.max = Swift.max(values.max, value)
                values.last = value
            }
        }
        func set(_ value: Int64) { record(Double(value)) }
        func set(_ value: Double) { record(value) }
        func increment(by amount: Double) { values.withLock { $0.last += amount } }
        func decrement(by amount: Double) { values.withLock { $0.last -= amount } }
        // Timers in seconds, as Prometheus names them.
        func recordNanoseconds(_ duration: Int64) { record(Double(duration) / 1e9) }

        func lines(_ key: String) -> [String] {
            let values = values.withLock { $0 }
            switch kind {
            case .counter:
                return ["\(key) \(Int64(values.sum))"]
            case .gauge:
                return ["\(key) \(values.last)"]
            case .summary, .timer:
                let suffix = kind == .timer ? "_seconds" : ""
                func name(_ part: String) -> String {
                    guard let brace = key.firstIndex(of: "{") else { return key + suffix + part }
                    return key[..<brace] + suffix + part + key[brace...]
                }
                return [
                    "\(name("_count")) \(values.count)",
                    "\(name("_sum")) \(values.sum)",
                    "\(name("_max")) \(values.max)",
                ]
            }
        }
    }
}
