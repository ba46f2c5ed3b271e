// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Strata",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataSQLite", targets: ["StrataSQLite"]),
        .executable(name: "strata-demo", targets: ["strata-demo"]),
    ],
    targets: [
        .systemLibrary(
            name: "StrataSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .target(
            name: "Strata",
            dependencies: ["StrataSQLite"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "strata-demo",
            dependencies: ["Strata"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
