import FluentKit
import Logging
import NIOCore
import NIOPosix
import SQLKit
import ServiceLifecycle

/// The Fluent databases of the server, migrated at start, and shut down
/// after the HTTP server when the application stops (a service of its
/// own, after the server in the service group).
public final class LibraryDatabases: Service, Sendable {
    /// The identifier of the library's database among Fluent's databases.
    static let id = DatabaseID(string: "library")

    let databases: Databases
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    /// The driver the databases run on.
    public let driver: FluentDriverChoice

    /// Registers the database at `path` on `driver`, and migrates it.
    public init(path: String, driver: FluentDriverChoice, logger: Logger) async throws {
        guard let configuration = driver.configuration(path: path) else {
            throw UnavailableDriver(driver: driver)
        }
        eventLoopGroup = MultiThreadedEventLoopGroup.singleton
        databases = Databases(threadPool: NIOThreadPool.singleton, on: eventLoopGroup)
        databases.use(configuration, as: Self.id)
        self.driver = driver
        self.logger = logger
        do {
            let migrator = Migrator(
                databases: databases, migrations: .library, logger: logger, on: eventLoopGroup.any())
            try await migrator.setupIfNeeded().get()
            try await migrator.prepareBatch().get()
        } catch {
            await databases.shutdownAsync()
            throw error
        }
    }

    /// A database for one request (as Vapor's `request.db`), on any of the
    /// group's event loops.
    public func database(logger: Logger? = nil) -> any Database {
        databases.database(Self.id, logger: logger ?? self.logger, on: eventLoopGroup.any())!
    }

    /// Creates authors and ten books each, in one transaction, unless there
    /// are authors already.
    public func seed(authors: Int, booksPerAuthor: Int = 10) async throws {
        try await database().transaction { db in
            guard try await Author.query(on: db).count() == 0 else { return }
            for a in 1...authors {
                let author = Author(name: "Author \(a)")
                try await author.create(on: db)
                for b in 1...booksPerAuthor {
                    try await Book(authorID: author.id!, title: "Book \(a).\(b)", year: 1900 + (a * b) % 125)
                        .create(on: db)
                }
            }
        }
    }

    /// Turns the database file to WAL mode, which SQLite keeps in the file
    /// for every connection (`PRAGMA journal_mode = WAL`, through SQLKit).
    public func useWriteAheadLog() async throws {
        let sql = database() as! any SQLDatabase
        try await sql.raw("PRAGMA journal_mode = WAL").run()
    }

    /// Waits for the application to stop, then closes the databases.
    public func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Closes the databases (their connections or pool).
    public func shutdown() async {
        await databases.shutdownAsync()
    }
}

/// The driver was asked for in a build that does not have it.
public struct UnavailableDriver: Error, CustomStringConvertible {
    public var driver: FluentDriverChoice

    public var description: String {
        "This build has no \(driver.rawValue): build with --traits FluentSQLiteDriver"
    }
}
