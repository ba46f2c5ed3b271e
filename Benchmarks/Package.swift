// swift-tools-version: 6.1
import PackageDescription

// Performance comparison of Strata against raw SQLite C calls and GRDB 7.
//
// Run with:
//     cd Benchmarks && swift package --disable-sandbox benchmark
//
// Each workload library imports exactly one of Strata / GRDB / the sqlite3 C API,
// so that the benchmark executable never sees two conflicting `DatabaseQueue`,
// `Row`, etc. in the same file.
let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v13)],
    traits: [
        // The @DatabaseRecord workloads (`records-macro`, `insert-macro`):
        // `swift build -c release --product compare --traits Macros`. Off by
        // default, so that bench-check (CI) never builds swift-syntax.
        .trait(name: "Macros", description: "Adds the @DatabaseRecord workloads; builds swift-syntax."),
        // The Fluent workloads (`fluent-throughput`): the Strata driver
        // against fluent-sqlite-driver. Off by default, so that
        // bench-check (CI) never builds fluent-kit nor sqlite-nio.
        .trait(name: "Fluent", description: "Adds fluent-throughput: Fluent on Strata and on fluent-sqlite-driver."),
        .trait(
            name: "Integrations",
            description: "Strata with its Logging, Metrics and Tracing traits, and the keyed-reads-* workloads."),
    ],
    dependencies: [
        // Strata's three integrations only with this package's trait
        // `Integrations` (`swift build -c release --traits Integrations`),
        // for the `keyed-reads-*` workloads (issue 34). Without it, the
        // other workloads are built as before: linking swift-log,
        // swift-metrics and swift-distributed-tracing alone adds 10 to 40
        // allocations of the Swift runtime's caches to each of their counts.
        .package(
            name: "Strata", path: "../",
            traits: [
                .trait(name: "Macros", condition: .when(traits: ["Macros"])),
                .trait(name: "Fluent", condition: .when(traits: ["Fluent"])),
                .trait(name: "Logging", condition: .when(traits: ["Integrations"])),
                .trait(name: "Metrics", condition: .when(traits: ["Integrations"])),
                .trait(name: "Tracing", condition: .when(traits: ["Integrations"])),
            ]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver", exact: "4.9.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The fixture SQL and the pool workload's threads, shared by all.
        .target(
            name: "WorkloadSupport",
            path: "Sources/WorkloadSupport"
        ),
        .target(
            name: "CWorkloads",
            dependencies: ["WorkloadSupport", .product(name: "StrataSQLite", package: "Strata")],
            path: "Sources/CWorkloads"
        ),
        // Records declared in a module of their own, as an app declares
        // them: StrataWorkloads and GRDBWorkloads fetch them across the
        // module boundary (issue 46).
        .target(
            name: "StrataClientRecords",
            dependencies: [.product(name: "Strata", package: "Strata")],
            path: "Sources/StrataClientRecords"
        ),
        .target(
            name: "GRDBClientRecords",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/GRDBClientRecords"
        ),
        .target(
            name: "StrataWorkloads",
            dependencies: [
                "WorkloadSupport", "StrataClientRecords", .product(name: "Strata", package: "Strata"),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Integrations"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Integrations"])),
                .product(
                    name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Integrations"])),
            ],
            path: "Sources/StrataWorkloads"
        ),
        .target(
            name: "GRDBWorkloads",
            dependencies: ["WorkloadSupport", "GRDBClientRecords", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/GRDBWorkloads"
        ),
        // Runs one workload in its own process, for profilers (valgrind, perf):
        // `swift build -c release --product strata-profile && .build/release/strata-profile list`
        // and see Sources/strata-profile/main.swift for callgrind.
        .executableTarget(
            name: "strata-profile",
            dependencies: ["WorkloadSupport", "StrataWorkloads", "CWorkloads", "GRDBWorkloads"],
            path: "Sources/strata-profile"
        ),
        // The workloads that CI counts with callgrind and compares with
        // Thresholds/callgrind.txt (Scripts/check-benchmarks.sh): strata-profile's
        // single-thread Strata and C workloads on smaller tables, without GRDB, so
        // that CI does not build GRDB (RESULTS.md, "The benchmark check in CI").
        .executableTarget(
            name: "bench-check",
            dependencies: ["WorkloadSupport", "StrataWorkloads", "CWorkloads"],
            path: "Sources/bench-check"
        ),
        // Wall clock of every workload, C (multi-thread and serialized), Strata
        // and GRDB interleaved in one process, as a markdown table:
        // `swift build -c release --product compare && .build/release/compare`.
        .executableTarget(
            name: "compare",
            dependencies: ["WorkloadSupport", "StrataWorkloads", "CWorkloads", "GRDBWorkloads"],
            path: "Sources/compare"
        ),
        // Pool throughput, C vs Strata vs GRDB: `swift build -c release --product pool-throughput`.
        .executableTarget(
            name: "pool-throughput",
            dependencies: ["WorkloadSupport", "CWorkloads", "StrataWorkloads", "GRDBWorkloads"],
            path: "Sources/pool-throughput"
        ),
        // Writes per second with observations on a pool, Strata vs GRDB:
        // `swift build -c release --product observation-throughput`.
        .executableTarget(
            name: "observation-throughput",
            dependencies: ["StrataWorkloads", "GRDBWorkloads", "WorkloadSupport"],
            path: "Sources/observation-throughput"
        ),
        // Live queries in @Observable models (issue 50): from a commit to
        // the live value, with 1, 10 and 100 live queries, and the writer's
        // rate with them: `swift build -c release --product live-query-latency`.
        .executableTarget(
            name: "live-query-latency",
            dependencies: [
                "WorkloadSupport", .product(name: "Strata", package: "Strata"),
                .product(name: "StrataSQLite", package: "Strata"),
            ],
            path: "Sources/live-query-latency"
        ),
        // The latency of Configuration.observesExternalChanges (a commit of
        // another process until its observation is notified), and its cost
        // on the pool's own writes and on an idle process (issue 31):
        // `swift build -c release --product external-latency`.
        // Typical Fluent work (issue 49): models and workloads written
        // once against FluentKit, run on the Strata driver and on
        // fluent-sqlite-driver; the same work through Strata's own API in
        // a module of its own (names of Strata and FluentKit collide).
        // `swift build -c release --traits Fluent --product fluent-throughput`.
        .target(
            name: "FluentWorkloads",
            dependencies: [.product(name: "FluentKit", package: "fluent-kit", condition: .when(traits: ["Fluent"]))],
            path: "Sources/FluentWorkloads"
        ),
        .target(
            name: "StrataAPIWorkloads",
            dependencies: [.product(name: "Strata", package: "Strata")],
            path: "Sources/StrataAPIWorkloads"
        ),
        .executableTarget(
            name: "fluent-throughput",
            dependencies: [
                "FluentWorkloads", "StrataAPIWorkloads", "WorkloadSupport", .product(name: "Strata", package: "Strata"),
                .product(name: "StrataFluent", package: "Strata", condition: .when(traits: ["Fluent"])),
                .product(name: "FluentKit", package: "fluent-kit", condition: .when(traits: ["Fluent"])),
                .product(
                    name: "FluentSQLiteDriver", package: "fluent-sqlite-driver", condition: .when(traits: ["Fluent"])),
            ],
            path: "Sources/fluent-throughput"
        ),
        // Issue 51: how cost grows with rows (and, to come, database size,
        // readers and observations), C, Strata and GRDB in turn; CSV files
        // that Scripts/plot-curves.py draws (Scripts/cost-curves.sh).
        .executableTarget(
            name: "cost-curves",
            dependencies: ["WorkloadSupport", "CWorkloads", "StrataWorkloads", "GRDBWorkloads"],
            path: "Sources/cost-curves"
        ),
        .executableTarget(
            name: "external-latency",
            dependencies: ["WorkloadSupport", .product(name: "Strata", package: "Strata")],
            path: "Sources/external-latency"
        ),
        // The benchmark suite lives in Benchmarks/Foundation (the plugin runs every
        // executable target whose directory sits in Benchmarks/). The target can't be
        // named "Foundation": it would shadow Apple's Foundation module.
        .executableTarget(
            name: "StrataBenchmarks",
            dependencies: [
                "WorkloadSupport",
                "CWorkloads",
                "StrataWorkloads",
                "GRDBWorkloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Foundation",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
