// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

/// The rooms of Core (Sources/Strata/Core), each a folder with a README.md
/// (the Architecture article, "Rooms of Core").
let coreRooms = [
    "Access", "Connection", "Errors", "Functions", "Instrumentation", "Internal", "Maintenance", "Requests", "Rows",
    "Schema", "Statements", "Transactions", "Values",
]

let package = Package(
    name: "Strata",
    // GRDB 7's deployment targets. Linux needs no declaration.
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v7)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataSQLite", targets: ["StrataSQLite"]),
        .executable(name: "strata-demo", targets: ["strata-demo"]),
        // Empty without the SQLKit trait.
        .library(name: "StrataSQLKit", targets: ["StrataSQLKit"]),
        // Empty without the Fluent trait.
        .library(name: "StrataFluent", targets: ["StrataFluent"]),
    ],
    traits: [
        .trait(name: "Logging", description: "Logs statements, slow statements and connections with apple/swift-log."),
        .trait(name: "Metrics", description: "Records durations, waits and counts with apple/swift-metrics."),
        .trait(
            name: "Tracing",
            description: "Creates spans for accesses and statements with apple/swift-distributed-tracing."),
        // Off by default: users resolve and build nothing extra. Turn it on
        // (`swift build --traits OpenCombine`, or `traits: ["OpenCombine"]`
        // on the `.package` line) to get the Combine publishers where Apple's
        // Combine does not exist, through OpenCombine. Where Combine exists,
        // the publishers are always there, built on Combine.
        .trait(
            name: "OpenCombine",
            description: "Builds the Combine publishers against OpenCombine where Combine is missing (Linux)."
        ),
        // Off by default: the record macro (`@DatabaseRecord`) is built on
        // swift-syntax, which users who do not turn the trait on never
        // resolve, download nor build.
        .trait(
            name: "Macros",
            description: "The @DatabaseRecord macro, which writes a record's init(row:), encode(to:) and Columns."
        ),
        // Off by default: the StrataSQLKit product, an SQLKit database
        // (vapor/sql-kit) over Strata's queues and pools. Without the trait,
        // nothing of sql-kit nor swift-nio resolves, and the product is empty.
        .trait(
            name: "SQLKit",
            description: "StrataSQLKit: an SQLKit database (vapor/sql-kit) over a Strata queue or pool."
        ),
        // Off by default: the StrataFluent product, a FluentKit driver
        // (vapor/fluent-kit) on Strata, built on StrataSQLKit.
        .trait(
            name: "Fluent",
            description: "StrataFluent: a FluentKit driver (vapor/fluent-kit) on Strata; turns SQLKit on.",
            enabledTraits: ["SQLKit"]
        ),
    ],
    dependencies: [
        // Resolved only when the trait that uses them is enabled.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // The URL ends with a slash on purpose. SwiftPM's swift-syntax
        // prebuilts (on by default) fetch a dependency spelled like
        // swift-syntax's known URLs whenever the package has a macro target,
        // even when the trait that uses it is off: spelled this way, users
        // without the Macros trait never fetch it (CI checks that there is no
        // checkout). The price: with the trait, swift-syntax builds from
        // source rather than from a prebuilt.
        .package(url: "https://github.com/apple/swift-syntax.git/", exact: "603.0.1"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(
            name: "StrataSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .target(
            name: "Strata",
            dependencies: [
                "StrataSQLite",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(traits: ["OpenCombine"])),
                .product(
                    name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(traits: ["OpenCombine"])),
                .target(name: "StrataMacros", condition: .when(traits: ["Macros"])),
            ],
            // The README of each room of Core: what it holds, and the rooms
            // it may use (Scripts/check-layering.sh reads them).
            exclude: coreRooms.map { "Core/\($0)/README.md" },
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The record macro's implementation (Sources/StrataMacros), a
        // compiler plugin. Its swift-syntax dependencies are conditional on
        // the trait too, so that without it nothing resolves swift-syntax;
        // its sources are empty then (`#if Macros`).
        .macro(
            name: "StrataMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftDiagnostics", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(
                    name: "SwiftCompilerPlugin", package: "swift-syntax", condition: .when(traits: ["Macros"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // SQLKit on Strata (Sources/StrataSQLKit). Its sources are empty
        // without the trait (`#if SQLKit`).
        .target(
            name: "StrataSQLKit",
            dependencies: [
                "Strata",
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["SQLKit"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["SQLKit"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SQLKit"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Fluent on Strata (Sources/StrataFluent). Its sources are empty
        // without the trait (`#if Fluent`).
        .target(
            name: "StrataFluent",
            dependencies: [
                "Strata",
                "StrataSQLKit",
                .product(name: "FluentKit", package: "fluent-kit", condition: .when(traits: ["Fluent"])),
                .product(name: "FluentSQL", package: "fluent-kit", condition: .when(traits: ["Fluent"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Fluent"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Fluent"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Fluent"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "strata-demo",
            dependencies: ["Strata"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The test kit (Tests/StrataTestSupport): the SQL recorder, the
        // waiter, the locked box and counter, the writers and the shared
        // fixtures that every test uses. Not a product: only the tests see it.
        .target(
            name: "StrataTestSupport",
            dependencies: [
                "Strata",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(traits: ["OpenCombine"])),
                .product(
                    name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(traits: ["OpenCombine"])),
            ],
            path: "Tests/StrataTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The other process of the tests of external changes
        // (Configuration.observesExternalChanges): it writes to and observes
        // the database that a test observes. Not a product: the tests run it
        // from the build folder.
        .executableTarget(
            name: "strata-external-writer",
            dependencies: ["Strata"],
            path: "Tests/StrataExternalWriter",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "StrataTests",
            dependencies: [
                "Strata",
                "StrataTestSupport",
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                ),
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(traits: ["OpenCombine"])),
                .product(
                    name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(traits: ["OpenCombine"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The macro's tests (Tests/StrataMacrosTests): its expansions and
        // diagnostics, and records that use it. Their sources are empty
        // without the trait (`#if Macros`), so that the default `swift test`
        // never builds swift-syntax.
        .testTarget(
            name: "StrataMacrosTests",
            dependencies: [
                "Strata",
                "StrataTestSupport",
                .target(name: "StrataMacros", condition: .when(traits: ["Macros"])),
                .product(
                    name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax",
                    condition: .when(traits: ["Macros"])),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(
                    name: "SwiftSyntaxMacroExpansion", package: "swift-syntax", condition: .when(traits: ["Macros"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // StrataSQLKit's tests, SQLKit's own benchmark suite among them.
        // Empty without the trait.
        .testTarget(
            name: "StrataSQLKitTests",
            dependencies: [
                "StrataSQLKit",
                "StrataTestSupport",
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["SQLKit"])),
                .product(name: "SQLKitBenchmark", package: "sql-kit", condition: .when(traits: ["SQLKit"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["SQLKit"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["SQLKit"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SQLKit"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // StrataFluent's tests: FluentKit's benchmark suite, as
        // fluent-sqlite-driver runs it, and the driver's own. XCTest, not
        // Swift Testing: the suite blocks on futures (`wait()`), which would
        // starve Swift Testing's task threads. Empty without the trait.
        .testTarget(
            name: "StrataFluentTests",
            dependencies: [
                "StrataFluent",
                "StrataTestSupport",
                .product(name: "FluentKit", package: "fluent-kit", condition: .when(traits: ["Fluent"])),
                .product(name: "FluentSQL", package: "fluent-kit", condition: .when(traits: ["Fluent"])),
                .product(name: "FluentBenchmark", package: "fluent-kit", condition: .when(traits: ["Fluent"])),
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Fluent"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Fluent"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Fluent"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Fluent"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
