// What a replica learns from its file without opening a connection: whether
// the follower (another process) waits for the exclusive lock that applying
// changes needs, and a version that changes when it has applied some.
//
// A follower such as `litestream restore -f` writes pages straight into the
// database file under SQLite's EXCLUSIVE lock, taken as SQLite takes it: a
// write lock on the PENDING byte first, then on the SHARED range. A
// connection in WAL mode keeps a SHARED lock for as long as it is open, so
// the follower waits with the PENDING byte locked until every connection of
// every process is closed. Reading that byte's lock with `F_GETLK` is how
// the replica knows it must close its connections.

import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Looks at a replica's database file from outside SQLite.
final class ReplicaFileProbe: Sendable {
    /// The offset of SQLite's PENDING byte (`sqlite3PendingByte`, 1 GiB).
    static let pendingByteOffset: off_t = 0x4000_0000

    /// The identity and state of the replica's files, compared between two
    /// looks: the database file's inode, size and modification time, and
    /// the content of the follower's `-txid` file when there is one (Litestream
    /// writes the last applied transaction there).
    struct Version: Equatable, Sendable {
        var inode: UInt64
        var size: Int64
        var modificationSeconds: Int
        var modificationNanoseconds: Int
        var transaction: [UInt8]
    }

    let path: String
    private let transactionPath: String
    /// The descriptor that reads the locks, and the inode it was opened on:
    /// the file that this process's connections have open. Opened before a
    /// pool opens; closed only while no connection is open.
    private let descriptor = Mutex<(fd: Int32, inode: UInt64)?>(nil)

    init(path: String) {
        self.path = path
        transactionPath = path + "-txid"
    }

    deinit {
        descriptor.withLock { descriptor in
            if let descriptor { close(descriptor.fd) }
        }
    }

    /// What the follower does, seen from the file's locks.
    enum FollowerState: Equatable {
        /// No other process holds a write lock on the PENDING byte.
        case idle
        /// Another process waits for, or holds, the exclusive lock.
        case waitsForExclusiveLock
        /// The path names another file than the one the connections opened:
        /// the follower restored the database again.
        case replacedFile
    }

    /// Opens the descriptor that reads the locks, if it is not open. Called
    /// before a pool opens, so that the descriptor's file is the pool's, or
    /// an older one (then the next look says `replacedFile`, and the pool
    /// opens again).
    func openDescriptor() {
        descriptor.withLock { descriptor in
            guard descriptor == nil else { return }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                close(fd)
                return
            }
            descriptor = (fd, UInt64(info.st_ino))
        }
    }

    /// Whether another process holds a write lock on the PENDING byte (a
    /// writer that waits for, or holds, the exclusive lock), or replaced
    /// the file. Idle when the file does not exist or can't be read.
    func followerState() -> FollowerState {
        openDescriptor()
        return descriptor.withLock { descriptor in
            guard let descriptor else { return .idle }
            var info = stat()
            guard stat(path, &info) == 0 else { return .idle }
            if descriptor.inode != UInt64(info.st_ino) {
                return .replacedFile
            }
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = Self.pendingByteOffset
            lock.l_len = 1
            guard fcntl(descriptor.fd, F_GETLK, &lock) == 0 else { return .idle }
            // F_GETLK reports the locks of other processes only. A reader of
            // another process holds a read lock on the byte for an instant
            // while it takes its SHARED lock: only a write lock counts.
            return lock.l_type == Int16(F_WRLCK) ? .waitsForExclusiveLock : .idle
        }
    }

    /// Closes the descriptor that reads the locks. Only while no connection
    /// of this process has the file open: POSIX drops all of a process's
    /// locks on a file when any of its descriptors on it is closed, SQLite's
    /// connections' included. The next look opens the file again.
    func closeDescriptor() {
        descriptor.withLock { descriptor in
            if let descriptor { close(descriptor.fd) }
            descriptor = nil
        }
    }

    /// The current version of the files, or nil when the database file does
    /// not exist.
    func currentVersion() -> Version? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modification = info.st_mtimespec
        #else
            let modification = info.st_mtim
        #endif
        return Version(
            inode: UInt64(info.st_ino), size: Int64(info.st_size), modificationSeconds: Int(modification.tv_sec),
            modificationNanoseconds: Int(modification.tv_nsec), transaction: readTransactionFile())
    }

    private func readTransactionFile() -> [UInt8] {
        let fd = open(transactionPath, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[..<count]) : []
    }
}
