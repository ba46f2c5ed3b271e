// What tells the external change monitor when to look at the database:
// inotify on Linux, dispatch sources on Apple platforms, a timer elsewhere
// (or when notifications are turned off or fail to start). A watcher only
// says "the files may have changed": the monitor decides with
// `PRAGMA data_version`, so a spurious call costs one check, and a missing
// one is what the monitor's rechecks and the polling guard against.

import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Calls its handler when the files of a database may have changed, until
/// `stop()`.
protocol FileChangeWatcher: AnyObject, Sendable {
    /// Stops the calls, and releases the file descriptors and timers.
    func stop()

    /// Stops (true) or resumes (false) the notifications of writes to the
    /// files, while the connection's own writes make the monitor look
    /// anyway: the kernel then queues no event for each of them. The
    /// notifications of files created, deleted or renamed go on. On the
    /// watcher's queue.
    func setIgnoresWrites(_ ignoresWrites: Bool)
}

extension FileChangeWatcher {
    func setIgnoresWrites(_ ignoresWrites: Bool) {}
}

/// The names of the files whose changes matter: the database, its WAL and
/// its rollback journal.
struct DatabaseFileNames: Sendable {
    let directory: String
    let database: String

    init(path: String) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        directory = url.deletingLastPathComponent().path
        database = url.lastPathComponent
    }

    var databasePath: String { directory + "/" + database }

    /// Whether a file of the directory is the database, its WAL, or its
    /// rollback journal.
    func contains(_ name: String) -> Bool {
        name == database || name == database + "-wal" || name == database + "-journal"
    }
}

enum FileChangeWatchers {
    /// A watcher of file notifications where the system has them, or else
    /// a timer; nil only when a timer cannot be made either (never).
    /// `onChange` is told whether the call comes from a file notification
    /// (true) or the timer (false).
    static func make(
        path: String, usesNotifications: Bool, pollingInterval: TimeInterval, queue: DispatchQueue,
        onChange: @escaping @Sendable (_ isNotification: Bool) -> Void
    ) -> (watcher: any FileChangeWatcher, notifies: Bool) {
        if usesNotifications {
            #if os(Linux)
                if let watcher = InotifyWatcher(
                    files: DatabaseFileNames(path: path), queue: queue, onChange: { onChange(true) })
                {
                    return (watcher, true)
                }
            #elseif canImport(Darwin)
                if let watcher = DispatchSourceFileWatcher(
                    files: DatabaseFileNames(path: path), queue: queue, onChange: { onChange(true) })
                {
                    return (watcher, true)
                }
            #endif
        }
        return (PollingWatcher(interval: pollingInterval, queue: queue, onChange: { onChange(false) }), false)
    }
}

// MARK: - Polling

/// Calls its handler at a fixed interval.
final class PollingWatcher: FileChangeWatcher, @unchecked Sendable {
    private let timer: any DispatchSourceTimer

    init(interval: TimeInterval, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
        let interval = max(interval, 0.001)
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(Int(interval * 100_000_000)))
        timer.setEventHandler(handler: onChange)
        timer.resume()
    }

    func stop() {
        timer.cancel()
    }
}

// MARK: - inotify (Linux)

#if os(Linux)
    /// Watches the directory of the database with inotify, and calls its
    /// handler when the database, its WAL or its journal is written,
    /// created, deleted or renamed. A directory watch sees a file that is
    /// replaced (renamed over) or created after the watch began, which a
    /// watch of the file itself would not.
    final class InotifyWatcher: FileChangeWatcher, @unchecked Sendable {
        private let source: any DispatchSourceRead
        private let queue: DispatchQueue
        /// Whether the source is suspended, until `pauseInterval` after its
        /// last call. Only touched on `queue`.
        private var isPaused = false

        /// After each call, the watcher reads no event for this long, in
        /// seconds: the kernel merges the repeated writes of the WAL
        /// meanwhile, and the watcher's thread does not wake up for each.
        static let pauseInterval: TimeInterval = 0.01

        /// The events of the files of the directory that the watcher reads.
        private static let mask = UInt32(
            IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
        /// `mask` without the writes (see `setIgnoresWrites(_:)`).
        private static let maskIgnoringWrites = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)

        private let descriptor: Int32
        private let directory: String
        /// Whether writes are ignored now. Only touched on `queue`.
        private var ignoresWrites = false

        init?(files: DatabaseFileNames, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            guard inotify_add_watch(descriptor, files.directory, Self.mask) >= 0 else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
            self.directory = files.directory
            self.queue = queue
            source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [weak self] in
                guard InotifyWatcher.readEvents(descriptor, files) else { return }
                onChange()
                self?.pause()
            }
            source.setCancelHandler { close(descriptor) }
            source.resume()
        }

        /// Suspends the source for `pauseInterval`. On `queue`.
        private func pause() {
            guard !isPaused, !source.isCancelled else { return }
            isPaused = true
            source.suspend()
            queue.asyncAfter(deadline: .now() + Self.pauseInterval) { [self] in
                guard isPaused else { return }
                isPaused = false
                source.resume()
            }
        }

        /// Replaces the watch's mask: adding a watch for a watched path
        /// replaces its mask. When that fails, writes stay notified.
        func setIgnoresWrites(_ ignoresWrites: Bool) {
            guard ignoresWrites != self.ignoresWrites, !source.isCancelled else { return }
            let mask = ignoresWrites ? Self.maskIgnoringWrites : Self.mask
            if inotify_add_watch(descriptor, directory, mask) >= 0 {
                self.ignoresWrites = ignoresWrites
            }
        }

        func stop() {
            queue.async { [self] in
                source.cancel()
                // A suspended source runs its cancel handler once resumed.
                if isPaused {
                    isPaused = false
                    source.resume()
                }
            }
        }

        /// Reads the pending events; returns whether one of them concerns
        /// the database's files (or the queue overflowed, and some may).
        private static func readEvents(_ descriptor: Int32, _ files: DatabaseFileNames) -> Bool {
            var concerned = false
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { return concerned }
                buffer.withUnsafeBytes { bytes in
                    let headerSize = MemoryLayout<inotify_event>.size
                    var offset = 0
                    while offset + headerSize <= count {
                        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                            concerned = true
                        } else if length > 0, !concerned {
                            let nameBytes = bytes[(offset + headerSize)..<(offset + headerSize + length)]
                            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                            if files.contains(name) { concerned = true }
                        }
                        offset += headerSize + length
                    }
                }
            }
        }
    }
#endif

// MARK: - Dispatch sources (Apple platforms)

#if canImport(Darwin)
    /// Watches the database file, its WAL and their directory with dispatch
    /// sources (kqueue), and calls its handler when one is written, extended,
    /// deleted or renamed, or when an entry of the directory changes (a
    /// journal created or deleted, a file replaced). Not run by the test
    /// suite, which runs on Linux: see the article on external changes.
    final class DispatchSourceFileWatcher: FileChangeWatcher, @unchecked Sendable {
        private let sources: [any DispatchSourceFileSystemObject]

        init?(files: DatabaseFileNames, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
            var sources: [any DispatchSourceFileSystemObject] = []
            let watched: [(path: String, events: DispatchSource.FileSystemEvent, required: Bool)] = [
                (files.databasePath, [.write, .extend, .delete, .rename, .revoke], true),
                (files.databasePath + "-wal", [.write, .extend, .delete, .rename], false),
                (files.directory, [.write], true),
            ]
            for (path, events, required) in watched {
                let descriptor = open(path, O_EVTONLY)
                guard descriptor >= 0 else {
                    if required {
                        sources.forEach { $0.cancel() }
                        return nil
                    }
                    continue
                }
                let source = DispatchSource.makeFileSystemObjectSource(
                    fileDescriptor: descriptor, eventMask: events, queue: queue)
                source.setEventHandler(handler: onChange)
                source.setCancelHandler { close(descriptor) }
                source.resume()
                sources.append(source)
            }
            self.sources = sources
        }

        func stop() {
            sources.forEach { $0.cancel() }
        }
    }
#endif
