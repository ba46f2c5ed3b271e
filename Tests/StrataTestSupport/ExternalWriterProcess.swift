import Foundation

/// The helper executable `strata-external-writer` (Tests/StrataExternalWriter),
/// run as another process: it writes to, reads from and observes the
/// database of a test of external changes. Its exit is waited on with a
/// ``Waitable`` (no sleep).
///
/// ```swift
/// let output = try await ExternalWriterProcess.run(["exec", path, "write:INSERT INTO t DEFAULT VALUES"])
/// ```
package final class ExternalWriterProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let status = Waitable<Int32?>(nil)
    /// With `watchesOutput`, the standard output read so far, and whether
    /// its end was read.
    private let printed = Waitable((text: "", isComplete: false))
    private let watchesOutput: Bool

    /// The failure of a run: the helper is missing, or it exited with a
    /// status other than 0.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Starts the helper with the arguments. With `watchesOutput`, the
    /// output is read while the helper runs, for ``waitForOutput(_:timeout:)``.
    package init(_ arguments: [String], watchesOutput: Bool = false) throws {
        self.watchesOutput = watchesOutput
        guard let url = Self.executableURL else {
            throw Failure(description: "strata-external-writer not found beside the test binary: run swift build first")
        }
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        process.terminationHandler = { [status] process in
            status.update { $0 = process.terminationStatus }
        }
        try process.run()
        if watchesOutput {
            // Read by a thread of its own with blocking reads, to the end of
            // the output. Not with `readabilityHandler`: its dispatch source
            // was still registered when the pipe closed with this object,
            // which crashes libdispatch's event loop on Linux.
            let handle = output.fileHandleForReading
            Thread { [printed] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    printed.update { $0.text += String(decoding: data, as: UTF8.self) }
                }
                printed.update { $0.isComplete = true }
            }.start()
        }
    }

    /// Waits for the helper to exit; returns its standard output (with
    /// `watchesOutput`, what was read of it when it exited), or throws its
    /// standard error when it failed.
    package func waitForExit(timeout: Duration = .seconds(60)) async throws -> String {
        try await status.wait("strata-external-writer exits", timeout: timeout) { $0 != nil }
        let text: String
        if watchesOutput {
            try await printed.wait("the output of strata-external-writer ends", timeout: timeout) { $0.isComplete }
            text = printed.value.text
        } else {
            text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        guard status.value == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(description: "strata-external-writer exited with \(status.value ?? -1): \(message)")
        }
        return text
    }

    /// Returns once the helper has printed `text`, while it runs (it must be
    /// started with `watchesOutput`).
    package func waitForOutput(_ text: String, timeout: Duration = .seconds(30)) async throws {
        precondition(watchesOutput, "start the helper with watchesOutput")
        try await printed.wait("strata-external-writer prints \(text)", timeout: timeout) { $0.text.contains(text) }
    }

    /// Runs the helper to its end; returns its standard output.
    @discardableResult
    package static func run(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> String {
        try await ExternalWriterProcess(arguments).waitForExit(timeout: timeout)
    }

    /// The helper, in the build folder of the test binary.
    package static let executableURL: URL? = {
        var folders: [URL] = []
        #if os(Linux)
            folders.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        #endif
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        return
            folders
            .map { $0.appendingPathComponent("strata-external-writer") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
