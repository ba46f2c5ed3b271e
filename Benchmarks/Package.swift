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
    dependencies: [
        .package(name: "Strata", path: "../"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "CWorkloads",
            dependencies: [.product(name: "StrataSQLite", package: "Strata")],
            path: "Sources/CWorkloads"
        ),
        .target(
            name: "StrataWorkloads",
            dependencies: [.product(name: "Strata", package: "Strata")],
            path: "Sources/StrataWorkloads"
        ),
        // Runs one Strata workload, for profilers (valgrind, perf):
        // `swift build -c release --product strata-profile && valgrind --tool=callgrind .build/release/strata-profile insert`
        .executableTarget(
            name: "strata-profile",
            dependencies: ["StrataWorkloads", "CWorkloads"],
            path: "Sources/strata-profile"
        ),
        .target(
            name: "GRDBWorkloads",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/GRDBWorkloads"
        ),
        // Pool throughput, Strata vs GRDB: `swift build -c release --product pool-throughput`.
        .executableTarget(
            name: "pool-throughput",
            dependencies: ["StrataWorkloads", "GRDBWorkloads"],
            path: "Sources/pool-throughput"
        ),
        // Writes per second with observations on a pool, Strata vs GRDB:
        // `swift build -c release --product observation-throughput`.
        .executableTarget(
            name: "observation-throughput",
            dependencies: ["StrataWorkloads", "GRDBWorkloads"],
            path: "Sources/observation-throughput"
        ),
        // The benchmark suite lives in Benchmarks/Foundation (the plugin runs every
        // executable target whose directory sits in Benchmarks/). The target can't be
        // named "Foundation": it would shadow Apple's Foundation module.
        .executableTarget(
            name: "StrataBenchmarks",
            dependencies: [
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
