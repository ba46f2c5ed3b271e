// swift-tools-version: 6.2
import PackageDescription

// An example server: Hummingbird 2 over Strata, with Strata's logging, metrics
// and tracing integrations. The same application is built a second time against
// GRDB 7, for the load comparison in README.md.
//
// The application code lives once, in Sources/App, and is compiled into two
// modules through a symbolic link in each: StrataServerApp (which defines the
// STRATA condition and imports Strata) and GRDBServerApp (which imports GRDB).
// What differs between the two (opening the database pool) sits in one small
// file per module.
//
// The same API is written a third time with FluentKit (Sources/FluentServerApp,
// the `fluent-server` product), over Strata's Fluent driver, or, with this
// package's trait `FluentSQLiteDriver` (off by default, so that CI does not
// build sqlite-nio; load.sh turns it on), over fluent-sqlite-driver.
//
// This package is not part of Strata: the library's users never build it.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "StrataServerExample",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "strata-server", targets: ["strata-server"]),
        .executable(name: "grdb-server", targets: ["grdb-server"]),
        .executable(name: "fluent-server", targets: ["fluent-server"]),
    ],
    traits: [
        .trait(
            name: "FluentSQLiteDriver",
            description: "fluent-server can also run on vapor/fluent-sqlite-driver (--driver fluent-sqlite-driver).")
    ],
    dependencies: [
        .package(name: "Strata", path: "../..", traits: ["Logging", "Metrics", "Tracing", "Fluent"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver", from: "4.9.0"),
    ],
    targets: [
        .target(
            name: "StrataServerApp",
            dependencies: [
                .product(name: "Strata", package: "Strata"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings + [.define("STRATA")]
        ),
        .target(
            name: "GRDBServerApp",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FluentServerApp",
            dependencies: [
                .product(name: "Strata", package: "Strata"),
                .product(name: "StrataFluent", package: "Strata"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(
                    name: "FluentSQLiteDriver", package: "fluent-sqlite-driver",
                    condition: .when(traits: ["FluentSQLiteDriver"])),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "fluent-server", dependencies: ["FluentServerApp"], swiftSettings: swiftSettings),
        .executableTarget(name: "strata-server", dependencies: ["StrataServerApp"], swiftSettings: swiftSettings),
        .executableTarget(name: "grdb-server", dependencies: ["GRDBServerApp"], swiftSettings: swiftSettings),
        // What the two test targets share.
        .target(
            name: "ExampleTestSupport",
            dependencies: [
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/ExampleTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StrataServerAppTests",
            dependencies: [
                "StrataServerApp",
                "ExampleTestSupport",
                .product(name: "Strata", package: "Strata"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FluentServerAppTests",
            dependencies: [
                "FluentServerApp",
                "ExampleTestSupport",
                .product(name: "Strata", package: "Strata"),
                .product(name: "StrataFluent", package: "Strata"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
