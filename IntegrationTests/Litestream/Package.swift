// swift-tools-version: 6.1
import PackageDescription

// The writer of the Litestream integration test (run.sh): a server-like process
// that writes to a DatabasePool while `litestream replicate` streams the database
// to a file replica, until the test kills both with SIGKILL.
let package = Package(
    name: "StrataLitestreamTest",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "litestream-writer",
            dependencies: [.product(name: "Strata", package: "Strata")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
