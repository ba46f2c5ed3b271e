#if Fluent
    import FluentKit
    import Logging
    import Strata
    import StrataSQLKit

    /// Fluent's driver for one Strata queue or pool: each database it
    /// makes runs on it, with the event loop and logger of its context.
    struct StrataFluentDriver: DatabaseDriver {
        /// The queue or pool, or why it could not open: then every
        /// statement fails with that error.
        let writer: Result<any DatabaseWriter, any Error>
        /// Whether shutting down closes the pool.
        let ownsWriter: Bool
        let dataEncoder: StrataSQLDataEncoder
        let dataDecoder: StrataSQLDataDecoder
        let sqlLogLevel: Logger.Level?

        func makeDatabase(with context: DatabaseContext) -> any FluentKit.Database {
            StrataFluentDatabase(
                writer: writer, context: context, dataEncoder: dataEncoder, dataDecoder: dataDecoder,
                sqlLogLevel: sqlLogLevel)
        }

        func shutdown() {
            guard ownsWriter, case .success(let writer) = writer else { return }
            try? writer.close()
        }
    }
#endif
