import Foundation

/// Runs a program with arguments and an environment (nothing inherited but PATH and HOME), terminating it after
/// `seconds`. It waits without blocking a thread: the tests' in-process servers share the few threads of this machine.
func runProgram(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL = FileManager.default.temporaryDirectory,
    seconds: Double = 60
) async throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let inherited = ProcessInfo.processInfo.environment
    process.environment = environment.merging(["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]) { mine, _ in mine }
    process.currentDirectoryURL = directory
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    let collected = CollectedOutput()
    output.fileHandleForReading.readabilityHandler = { collected.append($0.availableData, toError: false) }
    error.fileHandleForReading.readabilityHandler = { collected.append($0.availableData, toError: true) }
    let (exits, continuation) = AsyncStream.makeStream(of: Int32.self)
    process.terminationHandler = { finished in
        continuation.yield(finished.terminationStatus)
        continuation.finish()
    }
    try process.run()
    let watchdog = Task {
        try await Task.sleep(for: .seconds(seconds))
        if process.isRunning { process.terminate() }
    }
    var status: Int32 = -1
    for await code in exits { status = code }
    watchdog.cancel()
    // Let the pipes drain what the process wrote last.
    try await Task.sleep(for: .milliseconds(100))
    output.fileHandleForReading.readabilityHandler = nil
    error.fileHandleForReading.readabilityHandler = nil
    collected.append(output.fileHandleForReading.readDataToEndOfFile(), toError: false)
    collected.append(error.fileHandleForReading.readDataToEndOfFile(), toError: true)
    return ProcessResult(status: status, standardOutput: collected.text(error: false), standardError: collected.text(error: true))
}
