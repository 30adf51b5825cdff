import Foundation

/// `exec:PROGRAM`: runs the program (no shell, no arguments) with the outcome JSON on standard input; exit status 0 means
/// delivered. The program gets a minimal environment (`PATH` and `HAAPI_GATEWAY_DELIVERY`, the delivery id), never the
/// gateway's own, which may hold secrets. A program still running after ``timeout`` is terminated (a failed attempt).
struct ExecCallbackSink: CallbackSink {
    let program: String
    var timeout: Duration = .seconds(30)

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
        let watchdog = Task { [timeout] in
            try await Task.sleep(for: timeout)
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        try? input.fileHandleForWriting.write(contentsOf: Data(delivery.document))
        try? input.fileHandleForWriting.close()
        var status: Int32 = -1
        for await code in exits { status = code }
        guard status == 0 else { throw GatewayError(.internalError, "the callback program \(program) exited with status \(status)") }
    }
}
