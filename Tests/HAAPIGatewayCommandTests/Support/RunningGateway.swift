import Foundation

@testable import GatewayTestSupport

/// The built `haapi-gateway` running in the background, its output collected as it comes.
final class RunningGateway: @unchecked Sendable {
    private let process: SpawnedProcess
    private let collected = CollectedOutput()

    /// Starts `program` with `arguments` and exactly `environment`, in `directory`: a gateway started by something else (a
    /// script that lays out a deployment and starts it as that deployment would, through `exec`), or a copy of the program.
    init(program: URL, _ arguments: [String], environment: [String: String], directory: URL = Repository.root) throws {
        let (output, error) = collected.pipes()
        process = try SpawnedProcess(
            executable: program,
            arguments: arguments,
            environment: environment,
            directory: directory,
            standardOutput: output,
            standardError: error
        )
    }

    /// Starts `haapi-gateway` with `arguments`; with `openFileLimit`, through `sh` with that open-file limit set first (as
    /// a supervisor that leaves a low limit in place: `ulimit -n`).
    init(_ arguments: [String], environment: [String: String] = [:], openFileLimit: (soft: Int, hard: Int)? = nil) throws {
        let executable: URL
        let commandLine: [String]
        if let openFileLimit {
            executable = URL(fileURLWithPath: "/bin/sh")
            commandLine =
                [
                    "-c", "ulimit -Sn \(openFileLimit.soft) && ulimit -Hn \(openFileLimit.hard) && exec \"$0\" \"$@\"", Repository.executable.path,
                ] + arguments
        } else {
            executable = Repository.executable
            commandLine = arguments
        }
        let (output, error) = collected.pipes()
        process = try SpawnedProcess(
            executable: executable,
            arguments: commandLine,
            environment: environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine },
            directory: Repository.root,
            standardOutput: output,
            standardError: error
        )
    }

    var standardOutput: String { collected.text(error: false) }
    var standardError: String { collected.text(error: true) }

    /// Waits until standard output (or standard error) matches `pattern` (a regular expression with one group) and
    /// returns the group; fails soon after the process ends without writing it.
    func waitForOutput(_ pattern: String, inStandardError: Bool = false, timeout: Duration = .seconds(60)) async throws -> String {
        try await collected.waitFor(pattern, inStandardError: inStandardError, timeout: timeout) { self.process.isRunning }
    }

    /// Waits for the process to exit and returns its status (terminating it after `timeout`).
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        process.terminate()
        let status = await process.waitForExit()
        try await Task.sleep(for: .milliseconds(100))
        return status
    }

    /// Whether the process still runs.
    var isRunning: Bool { process.isRunning }

    /// How the process ended ("running", "exited with N", "ended by signal N").
    var ending: String { process.ending }

    /// The process's id (the gateway's own, also when it was started through `sh`, which `exec`s it).
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGTERM and waits for the exit; SIGKILL after `limit`.
    /// - Returns: The exit status (that of SIGKILL when it was needed) and how long the stop took.
    func stopped(killingAfter limit: Duration) async throws -> (status: Int32, took: Duration) {
        // Timed from before the signal: a deadline the process counts from it is never measured short.
        let started = ContinuousClock.now
        signal(SIGTERM)
        while isRunning, ContinuousClock.now - started < limit {
            try await Task.sleep(for: .milliseconds(50))
        }
        let took = ContinuousClock.now - started
        if isRunning { signal(SIGKILL) }
        return (try await waitForExit(timeout: .seconds(10)), took)
    }

    /// Sends a signal (SIGTERM, SIGINT) to the process.
    func signal(_ number: Int32) { process.signal(number) }

    /// Stops a process the test left running: SIGTERM, then SIGKILL if it is still there 30 s later. It is waited for on
    /// a thread of its own, never here: `serve` drains for `server.drainSeconds` (5 s) after SIGTERM, and a `deinit` runs
    /// on the tests' cooperative pool, two threads on a 2-core machine, which a blocking wait would take from every
    /// in-process server of the suites running beside it (their requests stalled for 5-15 s at once).
    deinit {
        guard process.isRunning else { return }
        process.terminate()
        let process = process
        Thread.detachNewThread {
            let deadline = ContinuousClock.now + .seconds(30)
            while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }  // off the pool: a thread of its own
            process.signal(SIGKILL)
            process.waitUntilExit()  // off the pool: a thread of its own
        }
    }
}
