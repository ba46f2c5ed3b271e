// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Strata",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
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
