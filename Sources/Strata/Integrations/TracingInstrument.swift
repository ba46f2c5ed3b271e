#if Tracing
    import Foundation
    import Tracing

    /// What ``Configuration/tracing`` creates through
    /// swift-distributed-tracing: a span per database access (`db.read`,
    /// `db.write`), child of the span of the task that asked for it, and a
    /// span per statement inside it, named after its operation (`SELECT`...).
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.tracing = DatabaseTracing()
    /// ```
    ///
    /// Spans have the attributes of the OpenTelemetry database conventions:
    /// `db.system` and `db.system.name` (`sqlite`), `db.namespace` (the
    /// database path), and for statements `db.query.text` (never its
    /// arguments), `db.operation.name`, `db.response.affected_rows`, and
    /// `db.response.status_code` when it fails.
    ///
    /// The tracer is decided once per access, when it starts to wait, in the
    /// caller's task: with a no-op tracer (`NoOpTracer`, or nothing
    /// bootstrapped nor bound with `withTracer`), the access creates no span
    /// and its statements cost nothing more than without tracing.
    public struct DatabaseTracing: Sendable {
        /// The tracer; nil uses `InstrumentationSystem`'s (the one bound with
        /// `withTracer` in the caller's task, or else the bootstrapped one),
        /// looked up once per access.
        public var tracer: (any Tracer)?
        /// Whether each statement gets its own span. Default true.
        public var tracesStatements: Bool

        /// Tracing through `tracer`, with statement spans unless told otherwise.
        public init(tracer: (any Tracer)? = nil, tracesStatements: Bool = true) {
            self.tracer = tracer
            self.tracesStatements = tracesStatements
        }
    }

    /// Creates spans through swift-distributed-tracing (``Configuration/tracing``).
    /// One instance per connection: its statement spans are only touched on
    /// the connection's queue.
    ///
    /// The tracer is decided once per access, when it starts to wait (in the
    /// caller's task, so that `withTracer` applies): the configured one, or
    /// the one of `InstrumentationSystem`. When it is a no-op (`NoOpTracer`,
    /// or nothing bootstrapped), the access creates no span, attaches
    /// nothing, and the connection hears of none of its statements: no
    /// clock read, no dictionary insert, no attribute.
    final class TracingInstrument: DatabaseInstrument, @unchecked Sendable {
        /// The tracer, span and parent of one traced access.
        private final class AccessTrace {
            let tracer: any Tracer
            let parent: ServiceContext?
            var span: (any Span)?
            var enclosing: AccessTrace?

            init(tracer: any Tracer, parent: ServiceContext?) {
                self.tracer = tracer
                self.parent = parent
            }
        }

        private let configuration: DatabaseTracing
        /// Whether the configured tracer is a no-op (false without one).
        private let configuredTracerIsNoOp: Bool
        private var statementSpans: [ObjectIdentifier: any Span] = [:]
        /// The traced access that runs, if any.
        private var runningTrace: AccessTrace?
        private static let traceKey = "tracing.access"

        init(_ configuration: DatabaseTracing) {
            self.configuration = configuration
            self.configuredTracerIsNoOp = configuration.tracer.map { $0 is NoOpTracer } ?? false
        }

        /// The tracer, or nil when it is a no-op. Without a configured
        /// tracer, `InstrumentationSystem`'s: its instrument is compared by
        /// type with the no-op ones before any cast.
        private var activeTracer: (any Tracer)? {
            if let tracer = configuration.tracer {
                return configuredTracerIsNoOp ? nil : tracer
            }
            let instrument = InstrumentationSystem.instrument
            let type = ObjectIdentifier(Swift.type(of: instrument))
            if type == ObjectIdentifier(NoOpInstrument.self) || type == ObjectIdentifier(NoOpTracer.self) {
                return nil
            }
            let tracer = InstrumentationSystem.tracer
            return tracer is NoOpTracer ? nil : tracer
        }

        var statementTiming: StatementTiming {
            configuration.tracesStatements && !configuredTracerIsNoOp ? .every : .none
        }

        func statementTiming(during access: DatabaseAccessContext) -> StatementTiming {
            configuration.tracesStatements && runningTrace != nil ? .every : .none
        }

        func accessWillWait(_ access: DatabaseAccessContext) {
            // The caller's task or thread: its tracer, and its span as the parent.
            guard let tracer = activeTracer else { return }
            access.attachments[Self.traceKey] = AccessTrace(tracer: tracer, parent: ServiceContext.current)
        }

        func accessDidStart(_ access: DatabaseAccessContext, _ db: Database) {
            guard !access.attachments.isEmpty, let trace = access.attachments[Self.traceKey] as? AccessTrace else {
                return
            }
            let span = trace.tracer.startSpan(
                access.role == .writer ? "db.write" : "db.read", context: trace.parent ?? .topLevel, ofKind: .client)
            span.attributes["db.system"] = "sqlite"
            span.attributes["db.system.name"] = "sqlite"
            span.attributes["db.namespace"] = db.path
            trace.span = span
            trace.enclosing = runningTrace
            runningTrace = trace
        }

        func accessDidEnd(_ access: DatabaseAccessContext, _ db: Database, error: (any Error)?) {
            guard !access.attachments.isEmpty, let trace = access.attachments[Self.traceKey] as? AccessTrace,
                let span = trace.span
            else { return }
            runningTrace = trace.enclosing
            if let error {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error))
            }
            span.end()
        }

        func statementWillExecute(_ statement: Statement, _ db: Database) {
            guard configuration.tracesStatements else { return }
            let tracer: any Tracer
            let parent: ServiceContext
            if let runningTrace, let span = runningTrace.span {
                tracer = runningTrace.tracer
                parent = span.context
            } else {
                // A statement outside of any access (opening, closing); an
                // access that is not traced traces none of its statements.
                guard db.currentAccess == nil, let active = activeTracer else { return }
                tracer = active
                parent = ServiceContext.current ?? .topLevel
            }
            let id = ObjectIdentifier(statement)
            // A statement left half-read (a cursor not read to the end)
            // ends its previous span now.
            statementSpans.removeValue(forKey: id)?.end()
            let operation = statement.operationName
            let span = tracer.startSpan(operation, context: parent, ofKind: .client)
            span.attributes["db.system"] = "sqlite"
            span.attributes["db.system.name"] = "sqlite"
            span.attributes["db.query.text"] = statement.sql
            span.attributes["db.operation.name"] = operation
            statementSpans[id] = span
        }

        func statementDidExecute(_ statement: Statement, _ db: Database) {
            guard !statementSpans.isEmpty,
                let span = statementSpans.removeValue(forKey: ObjectIdentifier(statement))
            else { return }
            if !statement.isReadonly {
                span.attributes["db.response.affected_rows"] = db.changesCount
            }
            span.end()
        }

        func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError) {
            guard !statementSpans.isEmpty,
                let span = statementSpans.removeValue(forKey: ObjectIdentifier(statement))
            else { return }
            span.attributes["db.response.status_code"] = "\(error.extendedResultCode.rawValue)"
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            span.end()
        }

        func connectionDidClose(_ db: Database) {
            for span in statementSpans.values { span.end() }
            statementSpans.removeAll()
        }
    }
#endif
