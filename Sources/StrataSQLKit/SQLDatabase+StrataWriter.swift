#if SQLKit
    import SQLKit
    import Strata

    /// The databases of SQLKit and Fluent that run on a Strata queue or
    /// pool, and give it back.
    package protocol StrataWriterProviding {
        /// The queue or pool the statements run on; nil when it could not
        /// open.
        var providedStrataWriter: (any DatabaseWriter)? { get }
    }

    extension StrataSQLDatabase: StrataWriterProviding {
        package var providedStrataWriter: (any DatabaseWriter)? { writer }
    }

    extension SQLDatabase {
        /// The Strata queue or pool this SQLKit database runs on (nil for
        /// the databases of other drivers): Strata's own API on the same
        /// database (`ValueObservation`, statistics, replicas...).
        public var strataWriter: (any DatabaseWriter)? {
            (self as? any StrataWriterProviding)?.providedStrataWriter
        }
    }
#endif
