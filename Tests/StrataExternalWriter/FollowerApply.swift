// `strata-external-writer apply PATH SOURCE`: what a follower such as
// `litestream restore -f` does to a replica, without Litestream. It takes
// SQLite's EXCLUSIVE lock on PATH the way SQLite and Litestream take it (a
// write lock on the PENDING byte, then on the SHARED range, waiting for
// each), writes the bytes of SOURCE over PATH, and releases the locks.
// It prints "locking" before it asks for the lock, and "applied" at the end.

import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// SQLite's PENDING byte, and the SHARED range that follows it and its
/// RESERVED byte.
private let pendingByte: off_t = 0x4000_0000
private let sharedFirst: off_t = pendingByte + 2
private let sharedSize: off_t = 510

private func lockWaiting(_ fd: Int32, _ start: off_t, _ length: off_t, type: Int32) {
    var lock = flock()
    lock.l_type = Int16(type)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = start
    lock.l_len = length
    while fcntl(fd, F_SETLKW, &lock) != 0 {
        guard errno == EINTR else { fail("fcntl: \(String(cString: strerror(errno)))") }
    }
}

func applyLikeAFollower(path: String, source: String) {
    guard let bytes = FileManager.default.contents(atPath: source) else { fail("can't read \(source)") }
    let fd = open(path, O_RDWR)
    guard fd >= 0 else { fail("can't open \(path)") }
    // Unbuffered: the test waits for this line while the helper waits.
    FileHandle.standardOutput.write(Data("locking\n".utf8))
    lockWaiting(fd, pendingByte, 1, type: F_WRLCK)
    lockWaiting(fd, sharedFirst, sharedSize, type: F_WRLCK)
    let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    guard written == bytes.count, ftruncate(fd, off_t(bytes.count)) == 0, fsync(fd) == 0 else {
        fail("can't write \(path)")
    }
    lockWaiting(fd, pendingByte, 1, type: F_UNLCK)
    lockWaiting(fd, sharedFirst, sharedSize, type: F_UNLCK)
    close(fd)
    FileHandle.standardOutput.write(Data("applied\n".utf8))
}
