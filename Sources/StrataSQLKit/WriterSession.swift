#if SQLKit
    import Foundation
    import Strata

    /// The writer's connection, lent to one task for as long as its closure
    /// runs (``StrataSQLDatabase/withSession(_:)``): the statements the task
    /// sends run there, one after the other, and no other write comes in
    /// between, so that a transaction can span several awaited statements.
    ///
    /// The writer's access waits for the task's statements meanwhile: the
    /// other writes of the database wait for the session to end.
    final class WriterSession: @unchecked Sendable {
        private let condition = NSCondition()
        /// Guarded by `condition`.
        private var jobs: [@Sendable (Database) -> Void] = []
        /// Guarded by `condition`.
        private var isFinished = false

        /// Asks the writer for its connection; the session begins when the
        /// writer's other accesses have ended.
        init(_ writer: any DatabaseWriter) {
            writer.asyncWriteWithoutTransaction { db in self.serve(db) }
        }

        /// Runs `job` on the writer's connection, after the jobs sent
        /// before it. Once the session has ended, `job` gets an error.
        func run(_ job: @escaping @Sendable (Result<Database, any Error>) -> Void) {
            condition.lock()
            guard !isFinished else {
                condition.unlock()
                job(.failure(DatabaseError(resultCode: .SQLITE_MISUSE, message: "The SQLKit session has ended")))
                return
            }
            jobs.append { db in job(.success(db)) }
            condition.signal()
            condition.unlock()
        }

        /// Ends the session once the jobs sent so far have run.
        func finish() {
            condition.lock()
            isFinished = true
            condition.signal()
            condition.unlock()
        }

        /// The writer's access: runs the jobs until the session ends. A
        /// transaction that the session left open is rolled back, so that
        /// it does not leak into the next writes.
        private func serve(_ db: Database) {
            while true {
                condition.lock()
                while jobs.isEmpty && !isFinished { condition.wait() }
                guard !jobs.isEmpty else {
                    condition.unlock()
                    break
                }
                let job = jobs.removeFirst()
                condition.unlock()
                job(db)
            }
            if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
        }
    }
#endif
