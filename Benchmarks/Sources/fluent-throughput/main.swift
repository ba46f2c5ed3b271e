// Typical Fluent work on the Strata driver, on fluent-sqlite-driver 4.9.0,
// and through Strata's own API, measured in turn in each round (issue 49):
//     swift build -c release --traits Fluent --product fluent-throughput
//     .build/release/fluent-throughput [rounds]
//
// Each run opens a fresh copy of one file (1,000 authors, 10,000 posts, in
// WAL mode), warms up, and times its workload; the table gives the medians
// of the rounds: operations per second, and the whole process's processor
// time per operation (all threads), which moves less than wall-clock time
// from run to run. Both drivers run Fluent's default configuration: the
// Strata driver a pool (readers for reads), fluent-sqlite-driver one
// connection per event loop (two here) on NIO's thread pool.
#if Fluent
    import FluentKit
    import FluentSQLiteDriver
    import FluentWorkloads
    import Foundation
    import NIOPosix
    import StrataAPIWorkloads
    import StrataFluent
    import WorkloadSupport

    import struct Strata.Configuration
    import class Strata.DatabasePool

    let rounds = CommandLine.arguments.dropFirst().compactMap(Int.init).first ?? 3

    enum Driver: String, CaseIterable {
        case strata = "Strata driver"
        case fsd = "fluent-sqlite-driver"
        case api = "Strata API"
        /// FluentKit alone, on made-up rows (`CannedDatabase`).
        case floor = "FluentKit alone"
    }

    /// What a workload runs on.
    enum Target {
        case fluent(Databases, any FluentKit.Database)
        case api(DatabasePool)

        /// A database of the target for one of several concurrent tasks.
        var fluentDatabase: any FluentKit.Database {
            guard case .fluent(let databases, _) = self else { fatalError("not Fluent") }
            return databases.database(logger: quietLogger, on: MultiThreadedEventLoopGroup.singleton.any())!
        }
    }

    let quietLogger: Logger = {
        var logger = Logger(label: "fluent-throughput")
        logger.logLevel = .warning
        return logger
    }()

    struct Workload {
        let name: String
        /// The operations of one run.
        let operations: Int
        let run: (Target) async throws -> Int
    }

    func fluent(_ target: Target) -> any FluentKit.Database {
        guard case .fluent(_, let db) = target else { fatalError("not Fluent") }
        return db
    }

    func pool(_ target: Target) -> DatabasePool {
        guard case .api(let dbPool) = target else { fatalError("not the API") }
        return dbPool
    }

    func concurrentMix(_ target: Target, tasks: Int, steps: Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                switch target {
                case .fluent:
                    let db = target.fluentDatabase
                    group.addTask {
                        var sum = 0
                        for step in 0..<steps { sum &+= try await FluentWork.mixStep(db, step: task * steps + step) }
                        return sum
                    }
                case .api(let dbPool):
                    group.addTask {
                        var sum = 0
                        for step in 0..<steps {
                            sum &+= try await StrataAPIWork.mixStep(dbPool, step: task * steps + step)
                        }
                        return sum
                    }
                }
            }
            return try await group.reduce(0, &+)
        }
    }

    let workloads: [Workload] = [
        Workload(name: "find by id", operations: 2_000) { target in
            switch target {
            case .fluent: try await FluentWork.findByID(fluent(target), count: 2_000)
            case .api: try await StrataAPIWork.findByID(pool(target), count: 2_000)
            }
        },
        Workload(name: "page of 50, filtered and sorted", operations: 300) { target in
            switch target {
            case .fluent: try await FluentWork.page(fluent(target), count: 300)
            case .api: try await StrataAPIWork.page(pool(target), count: 300)
            }
        },
        Workload(name: "20 authors with their posts (eager)", operations: 200) { target in
            switch target {
            case .fluent: try await FluentWork.eagerLoad(fluent(target), count: 200)
            case .api: try await StrataAPIWork.eagerLoad(pool(target), count: 200)
            }
        },
        Workload(name: "create", operations: 500) { target in
            switch target {
            case .fluent: try await FluentWork.create(fluent(target), count: 500)
            case .api: try await StrataAPIWork.create(pool(target), count: 500)
            }
        },
        Workload(name: "1,000 creates in a transaction", operations: 5) { target in
            var sum = 0
            for seed in 0..<5 {
                switch target {
                case .fluent: sum &+= try await FluentWork.batch(fluent(target), seed: seed)
                case .api: sum &+= try await StrataAPIWork.batch(pool(target), seed: seed)
                }
            }
            return sum
        },
        Workload(name: "concurrent mix, 8 tasks (4 finds, a page, a create)", operations: 8 * 100) { target in
            try await concurrentMix(target, tasks: 8, steps: 100)
        },
    ]

    func processCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
    }

    func open(_ driver: Driver, path: String) throws -> Target {
        switch driver {
        case .api:
            return .api(try DatabasePool(path: path))
        case .strata, .fsd, .floor:
            let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
            let id = DatabaseID(string: "bench")
            switch driver {
            case .strata: databases.use(.strata(path: path, sqlLogLevel: nil), as: id)
            case .fsd: databases.use(.sqlite(.file(path), sqlLogLevel: nil), as: id)
            default: databases.use(DatabaseConfigurationFactory { CannedConfiguration() }, as: id)
            }
            return .fluent(
                databases, databases.database(id, logger: quietLogger, on: MultiThreadedEventLoopGroup.singleton.any())!
            )
        }
    }

    func close(_ target: Target) async throws {
        switch target {
        case .fluent(let databases, _): await databases.shutdownAsync()
        case .api(let dbPool): try dbPool.close()
        }
    }

    /// One run: operations per second and processor microseconds per
    /// operation.
    func measure(_ workload: Workload, _ driver: Driver, template: URL, directory: URL) async throws -> (Double, Double)
    {
        let path = directory.appendingPathComponent("\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: template, to: path)
        defer {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path.path + suffix)
            }
        }
        let target = try open(driver, path: path.path)
        // Warm-up: connections opened, statements prepared.
        switch target {
        case .fluent(_, let db): _ = try await FluentWork.findByID(db, count: 20)
        case .api(let dbPool): _ = try await StrataAPIWork.findByID(dbPool, count: 20)
        }
        let cpuStart = processCPUTime()
        let start = ContinuousClock.now
        let checksum = try await workload.run(target)
        let elapsed = ContinuousClock.now - start
        let cpu = processCPUTime() - cpuStart
        precondition(checksum != 0)
        try await close(target)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (Double(workload.operations) / seconds, cpu / Double(workload.operations))
    }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "fluent-throughput-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let template = directory.appendingPathComponent("template.sqlite")
    try FluentFixture.make(at: template.path)

    // PROFILE=<workload index>,<driver> runs that alone, 20 times (for
    // `perf record`): PROFILE=0,strata.
    if let profile = ProcessInfo.processInfo.environment["PROFILE"]?.split(separator: ","), profile.count == 2,
        let index = Int(profile[0]), let driver = Driver.allCases.first(where: { "\($0)" == profile[1] })
    {
        for _ in 0..<20 { _ = try await measure(workloads[index], driver, template: template, directory: directory) }
        exit(0)
    }

    let cpu = processorName()
    print("Fluent work, \(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu); medians of \(rounds) rounds")
    print("")
    print(
        "| workload | Strata driver, ops/s | fluent-sqlite-driver, ops/s | Strata / fluent-sqlite-driver"
            + " | Strata API, ops/s | driver overhead over the API | FluentKit alone, ops/s"
            + " | µs of processor per op: driver / FSD / API / FluentKit alone |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for workload in workloads {
        var rates: [Driver: [Double]] = [:]
        var cpus: [Driver: [Double]] = [:]
        for _ in 0..<rounds {
            for driver in Driver.allCases {
                let (rate, cpu) = try await measure(workload, driver, template: template, directory: directory)
                rates[driver, default: []].append(rate)
                cpus[driver, default: []].append(cpu)
            }
        }
        let strata = median(rates[.strata]!)
        let fsd = median(rates[.fsd]!)
        let api = median(rates[.api]!)
        let floor = median(rates[.floor]!)
        func f(_ value: Double) -> String {
            value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
        }
        print(
            "| \(workload.name) | \(f(strata)) | \(f(fsd)) | **\(String(format: "%.1f", strata / fsd))×**"
                + " | \(f(api)) | \(String(format: "%+.0f%%", (api / strata - 1) * 100)) | \(f(floor))"
                + " | \(f(median(cpus[.strata]!))) / \(f(median(cpus[.fsd]!))) / \(f(median(cpus[.api]!)))"
                + " / \(f(median(cpus[.floor]!))) |")
    }
#else
    print("Build with the Fluent trait: swift build -c release --traits Fluent --product fluent-throughput")
#endif
