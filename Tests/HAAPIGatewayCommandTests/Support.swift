import Foundation

/// Paths of the repository and of the built `haapi-gateway` binary, found from this file (never the working directory).
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let templates = root.appendingPathComponent("templates")
    static let config = root.appendingPathComponent("config")

    /// The `haapi-gateway` executable SwiftPM built beside the test bundle.
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("haapi-gateway")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/haapi-gateway")
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-gateway-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The result of running the binary.
struct ProcessResult {
    let status: Int32
    let standardOutput: String
    let standardError: String
}

/// Runs `haapi-gateway` in `directory` with arguments and an environment (nothing inherited but PATH), waiting at most 60 s.
func runGateway(_ arguments: [String], environment: [String: String] = [:], directory: URL = FileManager.default.temporaryDirectory) throws -> ProcessResult {
    let process = Process()
    process.executableURL = Repository.executable
    process.arguments = arguments
    process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
    process.currentDirectoryURL = directory
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
        standardError: String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
}
