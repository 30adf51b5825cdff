import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program started with `posix_spawn` as the leader of a process group of its own, so that everything it starts
/// (a shell script's `sleep`, a `curl` in the background) can be ended with it: ``endGroup(grace:)`` sends SIGTERM to
/// the whole group, then SIGKILL to whatever is left, and reaps the program.
///
/// The child gets exactly the environment given, a pipe's reading end as standard input, `/dev/null` as standard
/// output and error, no other descriptor of the gateway (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34, where
/// there is one), and a fresh signal state (none blocked, all at their defaults).
final class ProcessGroupChild: @unchecked Sendable {
    /// The program's process id, which is also its process group's.
    let processIdentifier: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `program` without arguments.
    /// - Parameters:
    ///   - environment: The child's whole environment.
    ///   - standardInput: The descriptor that becomes its standard input (the caller closes its own copy).
    /// - Returns: The child, or why it could not start (`posix_spawn`'s error: no such file, permission denied, …).
    static func start(_ program: String, environment: [String: String], standardInput: Int32) -> Result<ProcessGroupChild, GatewayError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = closeFrom(&actions, 3)
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
        // Process group 0: a new group whose id is the child's own process id.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(GatewayError(.internalError, "cannot run \(program): \(String(cString: strerror(result)))")) }
        return .success(ProcessGroupChild(processIdentifier: pid))
    }

    private init(processIdentifier: pid_t) {
        self.processIdentifier = processIdentifier
    }

    /// Its exit status, or 128 + the number of the signal that ended it; nil while it runs (reaps it once it exited).
    var status: Int32? {
        lock.withLock {
            if exitStatus == nil {
                var raw: Int32 = 0
                if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier {
                    exitStatus = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + raw & 0x7f
                }
            }
            return exitStatus
        }
    }

    /// Whether a process of its group is still there (the program, or anything it started that kept the group).
    var groupIsAlive: Bool {
        _ = status
        return kill(-processIdentifier, 0) == 0
    }

    /// Ends the whole process group: SIGTERM, then after `grace` (or as soon as the group is gone) SIGKILL to what is
    /// left, and reaps the program. Not cancellable: it runs to the end even in a cancelled task.
    func endGroup(grace: Duration = .seconds(2)) async {
        await Task {
            kill(-processIdentifier, SIGTERM)
            let deadline = ContinuousClock.now + grace
            while groupIsAlive, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            if groupIsAlive { kill(-processIdentifier, SIGKILL) }
            // SIGKILL cannot be caught: the program exits at once and is reaped here.
            while status == nil { try? await Task.sleep(for: .milliseconds(10)) }
        }.value
    }

    private typealias FileActionsClosingFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (not in Swift's Glibc module), looked up once.
    private static let closeFromFunction: FileActionsClosingFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: FileActionsClosingFrom.self) }

    private static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ descriptor: Int32) -> Int32 {
        closeFromFunction?(actions, descriptor) ?? -1
    }
}
