#if Fluent
    import FluentKit
    import Strata
    import StrataSQLKit

    extension StrataFluentDatabase: StrataWriterProviding {
        package var providedStrataWriter: (any DatabaseWriter)? { try? sql.get().writer }
    }

    extension FluentKit.Database {
        /// The Strata queue or pool this Fluent database runs on (nil for
        /// the databases of other drivers, and when the pool could not
        /// open): Strata's own API on the same database
        /// (`ValueObservation`, statistics, replicas...).
        public var strataWriter: (any DatabaseWriter)? {
            (self as? any StrataWriterProviding)?.providedStrataWriter
        }
    }
#endif
