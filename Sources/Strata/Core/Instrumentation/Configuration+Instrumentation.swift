extension Configuration {
    /// The instruments of the integrations that this configuration turns on,
    /// or nil when it turns none on (the default).
    func makeInstrument() -> (any DatabaseInstrument)? {
        var instruments: [any DatabaseInstrument] = []
        if let queryPlanMonitor {
            instruments.append(queryPlanMonitor)
        }
        if let statementStatistics {
            instruments.append(statementStatistics.makeStatisticsInstrument(self))
        }
        if let storageHealthMonitor {
            instruments.append(storageHealthMonitor)
        }
        #if Logging
            if let logger {
                instruments.append(LoggingInstrument(logger: logger, configuration: self))
            }
        #endif
        #if Metrics
            if let metrics {
                instruments.append(MetricsInstrument(metrics))
            }
        #endif
        #if Tracing
            if let tracing {
                instruments.append(TracingInstrument(tracing))
            }
        #endif
        switch instruments.count {
        case 0: return nil
        case 1: return instruments[0]
        default: return CompositeDatabaseInstrument(instruments: instruments)
        }
    }
}
