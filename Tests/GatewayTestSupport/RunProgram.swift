import Foundation

/// Runs a program with arguments and an environment (nothing inherited but PATH, HOME and TMPDIR: the program's temporary
/// files, a browser's profile among them, go under the test process's scratch root and leave with it), terminating it
/// after `seconds`. It waits without blocking a thread: the tests' in-process servers share the few threads of this
/// machine.
func runProgram(
    _ executable: URL,
    _ arguments: [String],
    environment: [String: String] = [:],
    directory: URL = FileManager.default.temporaryDirectory,
    seconds: Double = 60
) async throws -> ProcessResult {
    let collected = CollectedOutput()
    let (output, error) = collected.pipes()
    let process = try SpawnedProcess(
        executable: executable,
        arguments: arguments,
        environment: environment.merging(inheritedByPrograms(ProcessInfo.processInfo.environment)) { mine, _ in mine },
        directory: directory,
        standardOutput: output,
        standardError: error
    )
    let watchdog = Task {
        try await Task.sleep(for: .seconds(seconds))
        process.terminate()
    }
    let status = await process.waitForExit()
    watchdog.cancel()
    // What the process wrote last, read to the pipes' end (a program it started and left running may hold them open).
    await collected.waitUntilRead()
    return ProcessResult(status: status, standardOutput: collected.text(error: false), standardError: collected.text(error: true))
}

/// What a program ``runProgram`` starts inherits from the test process: PATH, HOME and TMPDIR (when set).
func inheritedByPrograms(_ inherited: [String: String]) -> [String: String] {
    var passed = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"]
    passed["TMPDIR"] = inherited["TMPDIR"]
    return passed
}
