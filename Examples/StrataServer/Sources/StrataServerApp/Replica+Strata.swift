import Foundation
import Logging
import Strata

/// Opens a read replica: starts `litestream restore -f` from
/// `options.replicaOf` into `options.databasePath` (the follower), waits up
/// to a minute for its first restore, and opens a `DatabaseReplica` on the
/// file. The follower is restarted whenever it stops, until the returned
/// follower goes away.
func openReplica(_ options: ServerOptions) throws -> (any DatabaseReader, (any ReplicaFollower)?) {
    let follower = try LitestreamFollower(options: options)
    try follower.waitForFirstRestore(timeout: 60)
    var configuration = Configuration()
    configuration.maximumReaderCount = options.maximumReaderCount
    configuration.busyMode = .timeout(options.busyTimeout)
    let replica = try DatabaseReplica(path: options.databasePath, configuration: configuration)
    options.logger.info(
        "Serving a read replica of \(options.replicaOf ?? "")",
        metadata: ["follower": "\(follower.processIdentifier)"])
    return (replica, follower)
}

/// `litestream restore -f`, run and restarted by the server.
///
/// Litestream 0.5.17 can't resume following after it stops unless the
/// replica has a snapshot newer than the last change it applied ("cannot
/// resume follow mode: saved TXID ... is ahead of latest snapshot"): the
/// follower then restores the database again, from scratch. The replica
/// keeps reading the old file until the new one replaces it.
final class LitestreamFollower: ReplicaFollower, @unchecked Sendable {
    private let options: ServerOptions
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var process: Process?
    private var isStopped = false
    private var restarts = 0

    init(options: ServerOptions) throws {
        self.options = options
        try start()
    }

    deinit {
        lock.withLock {
            isStopped = true
            process?.terminate()
        }
    }

    /// The process identifier of the running follower.
    var processIdentifier: Int32 { lock.withLock { process?.processIdentifier ?? 0 } }

    /// How many times the follower stopped and was started again.
    var restartCount: Int { lock.withLock { restarts } }

    private func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try litestreamExecutable())
        process.arguments = [
            "restore", "-f", "-follow-interval", options.followInterval, "-o", options.databasePath,
            options.replicaOf ?? "",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] process in
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            self?.followerDidExit(status: process.terminationStatus, message: message)
        }
        try process.run()
        lock.withLock { self.process = process }
    }

    private func followerDidExit(status: Int32, message: String) {
        let restartCount: Int? = lock.withLock {
            guard !isStopped else { return nil }
            restarts += 1
            return restarts
        }
        guard let restartCount else { return }
        options.logger.warning(
            "The Litestream follower stopped: restarting it",
            metadata: ["status": "\(status)", "restarts": "\(restartCount)", "message": "\(message.suffix(300))"])
        if message.contains("cannot resume follow mode") {
            // Restores from scratch: the new file replaces the old one at
            // once (Litestream renames it into place), and the replica opens
            // it then.
            try? FileManager.default.removeItem(atPath: options.databasePath + "-txid")
            try? FileManager.default.removeItem(atPath: options.databasePath)
        }
        // A follower that fails at once is not restarted in a busy loop.
        let delay = DispatchTimeInterval.milliseconds(restartCount > 3 ? 1000 : 100)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            do {
                try self.start()
            } catch {
                self.options.logger.error("The Litestream follower can't start: \(error)")
            }
        }
    }

    /// `options.litestreamPath`, looked up in `PATH` unless it is a path.
    private func litestreamExecutable() throws -> String {
        let name = options.litestreamPath
        if name.contains("/") { return name }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }

    /// Waits until the follower has restored the database once.
    func waitForFirstRestore(timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: options.databasePath + "-txid")
            || !FileManager.default.fileExists(atPath: options.databasePath)
        {
            guard Date() < deadline else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: options.databasePath])
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
