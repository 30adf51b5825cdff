import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process group a callback program leads. Foundation's `Process` starts every program as the leader of a group of
/// its own (`posix_spawn` with `POSIX_SPAWN_SETPGROUP`, swift-corelibs-foundation's `Process.run()`), so that what the
/// program starts (a script's `sleep`, a `curl` in the background) can be ended with it: ``end(grace:)`` sends SIGTERM
/// to the whole group, then SIGKILL to whatever is left after `grace`. Foundation reaps the program itself.
///
/// Only the group whose id is the program's process id is ever signalled: were the program in another group, there
/// would be no such group and nothing would be signalled (never the gateway's own group).
struct ProgramGroup: Sendable {
    /// The program's process id, which is its group's id.
    let leader: pid_t

    /// Whether a process of the group is still there (zombies included: the program until Foundation reaps it).
    var isAlive: Bool { kill(-leader, 0) == 0 }

    /// Sends `signal` to every process of the group.
    func send(_ signal: Int32) {
        kill(-leader, signal)
    }

    /// Ends the whole group: SIGTERM, then after `grace` (or as soon as the group is gone) SIGKILL to what is left. Not
    /// cancellable: it runs to the end in a cancelled task too.
    func end(grace: Duration) async {
        let group = self
        await Task {
            group.send(SIGTERM)
            let deadline = ContinuousClock.now + grace
            while group.isAlive, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            if group.isAlive { group.send(SIGKILL) }
        }.value
    }
}
