#if Integrations
    import Foundation
    import StrataWorkloads
    import WorkloadSupport

    /// The wall clock of `Fixture.keyedReadCount` fetches by primary key, each
    /// in a read access, with each of Strata's integrations off, alone and all
    /// three on: one queue per setting, every setting once per round in a
    /// rotating order, one warm-up round, then the median and fastest of the
    /// rounds, and their ratios to the run with none on.
    func compareIntegrations(rounds: Int) throws {
        log("load average before setup: \(loadAverage())")
        let settings = try StrataIntegrations.named.map { name, integrations in
            (name, try StrataKeyedReads(integrations: integrations))
        }
        var times: [String: [Double]] = [:]
        var sink = 0
        for round in 0...rounds {
            let shift = round % settings.count
            for (name, reads) in settings[shift...] + settings[..<shift] {
                let start = DispatchTime.now().uptimeNanoseconds
                sink &+= try reads.fetchByPrimaryKey(count: Fixture.keyedReadCount)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if round > 0 { times[name, default: []].append(seconds) }
            }
            log(round == 0 ? "warm-up round done" : "round \(round) of \(rounds) done (load average \(loadAverage()))")
        }
        let offMedian = median(times["off"]!)
        let offFastest = times["off"]!.min()!
        print(
            "\(Fixture.keyedReadCount) read accesses, each a fetch by primary key: median and fastest of "
                + "\(rounds) interleaved rounds (after one warm-up round), release build, load average at the end: "
                + "\(loadAverage()).\n")
        print("| integrations | median | fastest | median / off | fastest / off | per access (median) |")
        print("|---|---:|---:|---:|---:|---:|")
        for (name, _) in settings {
            let values = times[name]!
            let perAccess = median(values) / Double(Fixture.keyedReadCount) * 1e9
            print(
                "| \(name) | \(ms(median(values))) | \(ms(values.min()!)) | \(String(format: "%.3f", median(values) / offMedian)) "
                    + "| \(String(format: "%.3f", values.min()! / offFastest)) | \(String(format: "%.0f ns", perAccess)) |"
            )
        }
        log("checksum \(sink)")
    }
#endif
