#if Fluent
    import FluentKit
    import Logging
    import Strata
    import StrataSQLKit

    extension DatabaseConfigurationFactory {
        /// A Strata pool on the file at `path` (created if needed), for
        /// Fluent: `app.databases.use(.strata(path: "app.sqlite"), as: .sqlite)`.
        ///
        /// The pool opens on first use, with `configuration` (foreign keys
        /// are on, as Strata's default), and closes when the databases shut
        /// down. `dataEncoder` and `dataDecoder` store and read values as
        /// fluent-sqlite-driver does (dates as seconds since 1970, nested
        /// values as JSON text); `sqlLogLevel` is the level of the
        /// statements' log lines (nil logs none).
        public static func strata(
            path: String,
            configuration: Strata.Configuration = Strata.Configuration(),
            dataEncoder: StrataSQLDataEncoder = StrataSQLDataEncoder(),
            dataDecoder: StrataSQLDataDecoder = StrataSQLDataDecoder(),
            sqlLogLevel: Logger.Level? = .debug
        ) -> Self {
            .init {
                StrataFluentConfiguration(
                    source: .path(path, configuration), dataEncoder: dataEncoder, dataDecoder: dataDecoder,
                    sqlLogLevel: sqlLogLevel)
            }
        }

        /// An existing Strata queue or pool, for Fluent. The databases do
        /// not close it when they shut down: its owner does.
        public static func strata(
            _ writer: any DatabaseWriter,
            dataEncoder: StrataSQLDataEncoder = StrataSQLDataEncoder(),
            dataDecoder: StrataSQLDataDecoder = StrataSQLDataDecoder(),
            sqlLogLevel: Logger.Level? = .debug
        ) -> Self {
            .init {
                StrataFluentConfiguration(
                    source: .writer(writer), dataEncoder: dataEncoder, dataDecoder: dataDecoder,
                    sqlLogLevel: sqlLogLevel)
            }
        }
    }

    extension DatabaseID {
        /// The identifier Fluent's SQLite databases use: an app that moves
        /// from fluent-sqlite-driver to Strata keeps `as: .sqlite`.
        public static var sqlite: DatabaseID { .init(string: "sqlite") }
    }

    /// How Fluent makes the Strata driver (``DatabaseConfigurationFactory/strata(path:configuration:dataEncoder:dataDecoder:sqlLogLevel:)``).
    struct StrataFluentConfiguration: DatabaseConfiguration {
        /// Where the driver's queue or pool comes from.
        enum Source {
            /// A pool the driver opens, and closes at shutdown.
            case path(String, Strata.Configuration)
            /// A queue or pool of the app's.
            case writer(any DatabaseWriter)
        }

        let source: Source
        let dataEncoder: StrataSQLDataEncoder
        let dataDecoder: StrataSQLDataDecoder
        let sqlLogLevel: Logger.Level?
        var middleware: [any AnyModelMiddleware] = []

        func makeDriver(for databases: Databases) -> any DatabaseDriver {
            let writer: Result<any DatabaseWriter, any Error>
            let ownsWriter: Bool
            switch source {
            case .path(let path, let configuration):
                writer = Result { try DatabasePool(path: path, configuration: configuration) }
                ownsWriter = true
            case .writer(let existing):
                writer = .success(existing)
                ownsWriter = false
            }
            return StrataFluentDriver(
                writer: writer, ownsWriter: ownsWriter, dataEncoder: dataEncoder, dataDecoder: dataDecoder,
                sqlLogLevel: sqlLogLevel)
        }
    }
#endif
