import Foundation

/// `exec:PROGRAM`: runs the program (no shell, no arguments) with the outcome JSON on stdin; exit status 0 means delivered.
struct ExecCallbackSink: CallbackSink {
    let program: String

    var name: String { "exec:\(program)" }

    func deliver(_ document: [UInt8]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = []
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
        try? input.fileHandleForWriting.write(contentsOf: Data(document))
        try? input.fileHandleForWriting.close()
        var status: Int32 = -1
        for await code in exits { status = code }
        guard status == 0 else { throw GatewayError(.internalError, "the callback program \(program) exited with \(status)") }
    }
}
