import Foundation

@testable import GatewayTestSupport

/// The built `haapi-gateway` running in the background, its output collected as it comes.
final class RunningGateway: @unchecked Sendable {
    private let process = Process()
    private let collected = CollectedOutput()

    /// Starts `haapi-gateway` with `arguments`; with `openFileLimit`, through `sh` with that open-file limit set first (as
    /// a supervisor that leaves a low limit in place: `ulimit -n`).
    init(_ arguments: [String], environment: [String: String] = [:], openFileLimit: (soft: Int, hard: Int)? = nil) throws {
        if let openFileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "ulimit -Sn \(openFileLimit.soft) && ulimit -Hn \(openFileLimit.hard) && exec \"$0\" \"$@\"", Repository.executable.path,
            ] + arguments
        } else {
            process.executableURL = Repository.executable
            process.arguments = arguments
        }
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        process.currentDirectoryURL = Repository.root
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let collected = collected
        out.fileHandleForReading.readabilityHandler = { collected.append($0.availableData, toError: false) }
        err.fileHandleForReading.readabilityHandler = { collected.append($0.availableData, toError: true) }
        try process.run()
    }

    var standardOutput: String { collected.text(error: false) }
    var standardError: String { collected.text(error: true) }

    /// Waits until standard output (or standard error) matches `pattern` (a regular expression with one group) and
    /// returns the group.
    func waitForOutput(_ pattern: String, inStandardError: Bool = false, timeout: Duration = .seconds(60)) async throws -> String {
        let expression = try NSRegularExpression(pattern: pattern)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = inStandardError ? standardError : standardOutput
            if let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), let range = Range(match.range(at: 1), in: text) {
                return String(text[range])
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no output matching \(pattern); got:\n\(standardOutput)\n\(standardError)"])
    }

    /// Waits for the process to exit and returns its status (terminating it after `timeout`).
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try await Task.sleep(for: .milliseconds(100))
        return process.terminationStatus
    }

    /// The process's id (the gateway's own, also when it was started through `sh`, which `exec`s it).
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends a signal (SIGTERM, SIGINT) to the process.
    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
