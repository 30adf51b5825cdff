import Foundation

/// `exec:PROGRAM`: runs the program (no shell, no arguments) with the outcome JSON on standard input; exit status 0 means
/// delivered. The program gets a minimal environment (`PATH` and `HAAPI_GATEWAY_DELIVERY`, the delivery id), never the
/// gateway's own, which may hold secrets.
///
/// The program leads a process group of its own (``ProgramGroup``). When its attempt ends without it having exited 0
/// (still running after ``timeout``, the attempt cancelled by a shutdown, or a failing exit status), the whole group is
/// ended (SIGTERM, SIGKILL after ``grace``), so that nothing it started delivers later beside the retry.
struct ExecCallbackSink: CallbackSink {
    let program: String
    var timeout: Duration = .seconds(30)
    /// How long the group has between SIGTERM and SIGKILL.
    var grace: Duration = .seconds(2)

    var name: String { "exec:\(program)" }

    func deliver(_ delivery: CallbackDelivery) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = []
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HAAPI_GATEWAY_DELIVERY": delivery.id]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let (exits, continuation) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        do {
            try process.run()
        } catch {
            throw GatewayError(.internalError, "cannot run the callback program \(program)")
        }
        let group = ProgramGroup(leader: process.processIdentifier)
        let timedOut = TimeLimit()
        let watchdog = Task { [timeout, grace] in
            try await Task.sleep(for: timeout)
            timedOut.reached()
            await group.end(grace: grace)
        }
        defer { watchdog.cancel() }
        try? input.fileHandleForWriting.write(contentsOf: Data(delivery.document))
        try? input.fileHandleForWriting.close()
        // The stream ends when the program exits, or at once when the attempt is cancelled.
        var status: Int32?
        for await code in exits { status = code }
        if Task.isCancelled {
            await group.end(grace: grace)
            throw CancellationError()
        }
        guard let status, status == 0 else {
            // A retry follows: what the program left running is ended first.
            if group.isAlive { await group.end(grace: grace) }
            if timedOut.wasReached {
                throw GatewayError(
                    .internalError,
                    "the callback program \(program) did not exit within \(timeout.components.seconds) s and was ended"
                )
            }
            throw GatewayError(.internalError, "the callback program \(program) exited with status \(status.map(String.init) ?? "unknown")")
        }
    }
}
