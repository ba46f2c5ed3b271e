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
    ],
    dependencies: [
        .package(name: "Strata", path: "../..", traits: ["Logging", "Metrics", "Tracing"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
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
        .executableTarget(name: "strata-server", dependencies: ["StrataServerApp"], swiftSettings: swiftSettings),
        .executableTarget(name: "grdb-server", dependencies: ["GRDBServerApp"], swiftSettings: swiftSettings),
        .testTarget(
            name: "StrataServerAppTests",
            dependencies: [
                "StrataServerApp",
                .product(name: "Strata", package: "Strata"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
