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
    public struct DatabaseTracing: Sendable {
        /// The tracer; nil uses the one bootstrapped in `InstrumentationSystem`.
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
    final class TracingInstrument: DatabaseInstrument, @unchecked Sendable {
        private let configuration: DatabaseTracing
        private var statementSpans: [ObjectIdentifier: any Span] = [:]
        private static let parentKey = "tracing.parent"
        private static let spanKey = "tracing.span"

        init(_ configuration: DatabaseTracing) {
            self.configuration = configuration
        }

        private var tracer: any Tracer {
            configuration.tracer ?? InstrumentationSystem.tracer
        }

        func accessWillWait(_ access: DatabaseAccessContext) {
            // The caller's task or thread: its span is the parent.
            if let context = ServiceContext.current {
                access.attachments[Self.parentKey] = context
            }
        }

        func accessDidStart(_ access: DatabaseAccessContext, _ db: Database) {
            let parent = access.attachments[Self.parentKey] as? ServiceContext ?? .topLevel
            let span = tracer.startSpan(
                access.role == .writer ? "db.write" : "db.read", context: parent, ofKind: .client)
            span.attributes["db.system"] = "sqlite"
            span.attributes["db.system.name"] = "sqlite"
            span.attributes["db.namespace"] = db.path
            access.attachments[Self.spanKey] = span
        }

        func accessDidEnd(_ access: DatabaseAccessContext, _ db: Database, error: (any Error)?) {
            guard let span = access.attachments[Self.spanKey] as? any Span else { return }
            if let error {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error))
            }
            span.end()
        }

        func statementWillExecute(_ statement: Statement, _ db: Database) {
            guard configuration.tracesStatements else { return }
            let id = ObjectIdentifier(statement)
            // A statement left half-read (a cursor not read to the end)
            // ends its previous span now.
            statementSpans.removeValue(forKey: id)?.end()
            let parent =
                (db.currentAccess?.attachments[Self.spanKey] as? any Span)?.context
                ?? ServiceContext.current ?? .topLevel
            let span = tracer.startSpan(statement.operationName, context: parent, ofKind: .client)
            span.attributes["db.system"] = "sqlite"
            span.attributes["db.system.name"] = "sqlite"
            span.attributes["db.query.text"] = statement.sql
            span.attributes["db.operation.name"] = statement.operationName
            statementSpans[id] = span
        }

        func statementDidExecute(_ statement: Statement, _ db: Database) {
            guard let span = statementSpans.removeValue(forKey: ObjectIdentifier(statement)) else { return }
            if !statement.isReadonly {
                span.attributes["db.response.affected_rows"] = db.changesCount
            }
            span.end()
        }

        func statementDidFail(_ statement: Statement, _ db: Database, error: DatabaseError) {
            guard let span = statementSpans.removeValue(forKey: ObjectIdentifier(statement)) else { return }
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
