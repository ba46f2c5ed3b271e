import Hummingbird
import Logging

/// The Hummingbird application: the API, and with the integrations on
/// (unless `options.middleware` is off), Hummingbird's log, metrics and
/// tracing middleware (a span per request, which Strata's database spans are
/// children of).
public func buildApplication(_ options: ServerOptions) throws -> some ApplicationProtocol {
    let api = try LibraryAPI(options: options)
    let router = buildRouter(api, options: options)
    options.logger.info(
        "Serving \(options.databasePath) with \(databaseLibraryName)",
        metadata: [
            "readers": "\(options.maximumReaderCount)",
            "integrations": "\(options.integrations)",
            "middleware": "\(options.integrations && options.middleware)",
            "databaseReports": "\(options.databaseReports.map(\.rawValue).sorted())",
        ])
    return Application(
        router: router,
        configuration: .init(
            address: .hostname(options.hostname, port: options.port),
            serverName: "strata-server-example"),
        logger: options.logger)
}

/// The router of the application.
public func buildRouter(_ api: LibraryAPI, options: ServerOptions) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    if options.integrations && options.middleware {
        router.middlewares.add(LogRequestsMiddleware(.debug))
        router.middlewares.add(MetricsMiddleware())
        router.middlewares.add(TracingMiddleware())
    }
    api.addRoutes(to: router, options: options)
    return router
}
