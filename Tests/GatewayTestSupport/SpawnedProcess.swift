import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for the tests' many programs (gateways, PostgreSQL, `psql`, Python).
///
/// Not Foundation's `Process`: on Linux, the Foundation of Swift 6.3 reads each `/proc/self/fd` entry as a whole
/// 256-byte name when it starts a process, past the end of the directory buffer, and now and then the test process
/// dies of it (SIGSEGV in `Process.run()`; swift-corelibs-foundation pull request 5472, not in this toolchain). Here the
/// child's standard streams are set with `dup2` and every other descriptor is closed in the child
/// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34), so pipes of other processes never leak into it.
public final class SpawnedProcess: @unchecked Sendable {
    /// The child's process id.
    public let processIdentifier: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?
    private var endedBySignal = false
    /// Whether its status was taken by another waiter in this process (any code that reaps children it did not start):
    /// it has ended, how is unknown.
    private var reapedElsewhere = false
    /// The pipes given, kept for as long as the process is: a pipe released closes its reading end, and whoever reads
    /// the child's output through a handler then reads nothing.
    private let pipes: [Pipe]

    /// Starts `executable`.
    /// - Parameters:
    ///   - environment: The child's whole environment.
    ///   - directory: Its working directory (the caller's when nil).
    ///   - standardInput: A pipe whose reading end becomes its standard input (`/dev/null` when nil).
    ///   - standardOutput: A pipe whose writing end becomes its standard output (`/dev/null` when nil).
    ///   - standardError: The same for standard error.
    ///   - fileID: Where it is started (with `filePath`, `line` and `column`), named by the issue a test that starts it
    ///     without a share of the machine records (``StartsProgramsTrait``).
    public init(
        executable: URL,
        arguments: [String],
        environment: [String: String],
        directory: URL? = nil,
        standardInput: Pipe? = nil,
        standardOutput: Pipe? = nil,
        standardError: Pipe? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) throws {
        MachineShare.expectHeld(
            starting: executable,
            arguments,
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        func stream(_ pipe: Pipe?, reading: Bool, to descriptor: Int32) {
            if let pipe {
                let handle = reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, descriptor)
            } else {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        stream(standardInput, reading: true, to: 0)
        stream(standardOutput, reading: false, to: 1)
        stream(standardError, reading: false, to: 2)
        if let directory {
            guard Self.changeDirectory(&actions, directory.path) == 0 else { throw Self.failure("cannot change into \(directory.path)") }
        }
        guard Self.closeFrom(&actions, 3) == 0 else { throw Self.failure("cannot close the child's other descriptors") }
        // A fresh process's signals: none blocked, every one at its default (the test process blocks some, SIGCHLD
        // among them, and a child would inherit that).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Self.failure("cannot start \(executable.path): \(String(cString: strerror(result)))") }
        processIdentifier = pid
        pipes = [standardInput, standardOutput, standardError].compactMap { $0 }
        // The child holds its own copies; the parent's ends it does not read or write are closed, so that a reader sees
        // the end of the output when the child exits.
        try? standardInput?.fileHandleForReading.close()
        try? standardOutput?.fileHandleForWriting.close()
        try? standardError?.fileHandleForWriting.close()
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { status == nil }

    /// Its exit status, or the number of the signal that ended it; nil while it runs.
    public var status: Int32? {
        lock.withLock {
            if exitStatus == nil {
                var raw: Int32 = 0
                let reaped = waitpid(processIdentifier, &raw, WNOHANG)
                if reaped == processIdentifier {
                    exitStatus = raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
                    endedBySignal = raw & 0x7f != 0
                } else if reaped == -1, errno == ECHILD {
                    // No such child any more: it ended and another waiter took its status. Waiting on would never end
                    // (a full run once sat idle for good, a process's wait polling this): it is over, its status
                    // unknown, reported as 255, and `ending` says why.
                    exitStatus = 255
                    reapedElsewhere = true
                }
            }
            return exitStatus
        }
    }

    /// How it ended, for a failure's message: "running", "exited with N" or "ended by signal N" (which ``status`` alone
    /// cannot tell apart).
    public var ending: String {
        guard let status else { return "running" }
        let (bySignal, elsewhere) = lock.withLock { (endedBySignal, reapedElsewhere) }
        if elsewhere { return "ended; its status was taken by another waiter in the test process" }
        return bySignal ? "ended by signal \(status)" : "exited with \(status)"
    }

    /// Sends it a signal.
    public func signal(_ number: Int32) {
        guard isRunning else { return }
        kill(processIdentifier, number)
    }

    /// Sends it SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Waits, without blocking a thread, until it exits; returns its status.
    @discardableResult
    public func waitForExit() async -> Int32 {
        while true {
            if let status { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Blocks the calling thread until it exits; returns its status. Only for a thread or dispatch queue of the caller's
    /// own (a `deinit` hands its wait to one): async code awaits ``waitForExit()`` (`NoBlockingWaitTests`).
    @discardableResult
    public func waitUntilExit() -> Int32 {  // off the pool: its callers' lines say where they run
        while true {
            if let status { return status }
            usleep(10_000)  // off the pool: as above
        }
    }

    private typealias FileActionsClosingFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias FileActionsChangingDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (not in Swift's Glibc module), looked up once.
    private static let closeFromFunction: FileActionsClosingFrom? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0),
        "posix_spawn_file_actions_addclosefrom_np"
    )
    .map { unsafeBitCast($0, to: FileActionsClosingFrom.self) }
    /// glibc's `posix_spawn_file_actions_addchdir_np`, looked up once.
    private static let changeDirectoryFunction: FileActionsChangingDirectory? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0),
        "posix_spawn_file_actions_addchdir_np"
    )
    .map { unsafeBitCast($0, to: FileActionsChangingDirectory.self) }

    private static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ descriptor: Int32) -> Int32 {
        closeFromFunction?(actions, descriptor) ?? -1
    }

    private static func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        changeDirectoryFunction?(actions, path) ?? -1
    }

    private static func failure(_ message: String) -> CocoaError {
        CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
