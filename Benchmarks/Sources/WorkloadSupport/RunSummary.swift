import Foundation

// What every measuring tool of the package prints with its figures: the
// median of its rounds and the processor it ran on.

/// The median of `values` (the mean of the two middle ones for an even
/// count; NaN for none).
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The processor's name, from /proc/cpuinfo ("unknown processor" where it
/// does not tell).
public func processorName() -> String {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let name = line.split(separator: ":", maxSplits: 1).last
    else { return "unknown processor" }
    return name.trimmingCharacters(in: .whitespaces)
}

/// The `fraction` percentile of `sorted` (ascending), by nearest rank: the
/// smallest value with at least that fraction of the values at or below it
/// (`0.5` the median's lower middle, `0.99` the p99; NaN for none).
public func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((Double(sorted.count) * fraction).rounded(.up))
    return sorted[min(sorted.count - 1, max(0, rank - 1))]
}
