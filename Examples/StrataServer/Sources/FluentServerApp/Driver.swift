import FluentKit
import Strata
import StrataFluent

#if FluentSQLiteDriver
    import FluentSQLiteDriver
#endif

/// The FluentKit driver the server runs on: the same models, migrations and
/// routes over either.
public enum FluentDriverChoice: String, CaseIterable, Sendable {
    /// Strata's driver: `.strata(path:)`.
    case strata
    /// vapor/fluent-sqlite-driver: `.sqlite(.file(path))`, in builds with
    /// the package trait `FluentSQLiteDriver` (load.sh turns it on).
    case fluentSQLiteDriver = "fluent-sqlite-driver"

    /// Whether this build can run the driver.
    public var isAvailable: Bool {
        switch self {
        case .strata: true
        case .fluentSQLiteDriver:
            #if FluentSQLiteDriver
                true
            #else
                false
            #endif
        }
    }

    /// The configuration of the database at `path`, as an app writes it.
    /// Statements are logged at debug, the drivers' default: the server's
    /// log level decides whether they show.
    func configuration(path: String) -> DatabaseConfigurationFactory? {
        switch self {
        case .strata:
            // The one line that differs from a fluent-sqlite-driver app.
            return .strata(path: path)
        case .fluentSQLiteDriver:
            #if FluentSQLiteDriver
                return .sqlite(.file(path))
            #else
                return nil
            #endif
        }
    }
}

extension FluentDriverChoice {
    /// The drivers this build can run.
    public static var availableCases: [FluentDriverChoice] { allCases.filter(\.isAvailable) }
}
