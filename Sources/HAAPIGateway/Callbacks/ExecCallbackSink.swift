import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `exec:PROGRAM`: runs the program (no shell, no arguments) with the outcome JSON on standard input; exit status 0 means
/// delivered. The program gets a minimal environment (`PATH` and `HAAPI_GATEWAY_DELIVERY`, the delivery id), never the
/// gateway's own, which may hold secrets.
///
/// The program runs in a process group of its own (``ProcessGroupChild``). When its attempt ends without it having
/// exited 0 — still running after ``timeout``, the attempt's task cancelled (a shutdown ending the attempts under way),
/// or a failing exit status — the whole group is ended (SIGTERM, SIGKILL after ``grace``) and the program reaped, so
/// that nothing it started (a script's `sleep`, a `curl`) delivers later beside the retry.
struct ExecCallbackSink: CallbackSink {
    let program: String
    var timeout: Duration = .seconds(30)
    /// How long the group has between SIGTERM and SIGKILL.
    var grace: Duration = .seconds(2)

    var name: String { "exec:\(program)" }

    func deliver(_ delivery: CallbackDelivery) async throws {
        _ = Self.ignoringBrokenPipes
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw GatewayError(.internalError, "cannot run the callback program \(program): no pipe for its input") }
        let (reading, writing) = (ends[0], ends[1])
        // Both ends close on exec (no program started elsewhere keeps them); the child gets the reading end by `dup2`.
        _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writing, F_SETFD, FD_CLOEXEC)
        // The writing end never blocks the gateway: a program that does not read gets what fits.
        _ = fcntl(writing, F_SETFL, fcntl(writing, F_GETFL) | O_NONBLOCK)
        let started = ProcessGroupChild.start(
            program, environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "HAAPI_GATEWAY_DELIVERY": delivery.id], standardInput: reading)
        close(reading)
        let child: ProcessGroupChild
        switch started {
        case .success(let running): child = running
        case .failure(let error):
            close(writing)
            throw error
        }
        var input = StandardInput(descriptor: writing, bytes: delivery.document)
        defer { input.close() }
        let deadline = ContinuousClock.now + timeout
        while true {
            input.writeWhatFits()
            if let status = child.status {
                guard status == 0 else {
                    // A retry follows: what the program left running is ended first.
                    if child.groupIsAlive { await child.endGroup(grace: grace) }
                    throw GatewayError(.internalError, "the callback program \(program) exited with status \(status)")
                }
                return
            }
            if Task.isCancelled {
                await child.endGroup(grace: grace)
                throw CancellationError()
            }
            if ContinuousClock.now >= deadline {
                await child.endGroup(grace: grace)
                throw GatewayError(.internalError, "the callback program \(program) did not exit within its time limit and was ended")
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A write to a program that has exited is an error (`EPIPE`), not a signal that ends the gateway.
    private static let ignoringBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}
