import Foundation
import Logging

/// The program `keep --exec` runs after each refresh: without a shell or arguments, with only `PATH` and
/// `HAAPI_GATEWAY_TOKEN_FILE` in its environment. A failing hook is logged, never fatal.
public struct RefreshHook: Sendable {
    /// The program.
    public let program: String

    public init(program: String) {
        self.program = program
    }

    /// Runs the program for the token file at `path` and waits for it, without holding a thread while it runs.
    /// - Returns: Whether it ran and exited 0.
    @discardableResult
    public func run(tokenFile path: String, logger: Logger) async -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HAAPI_GATEWAY_TOKEN_FILE": path]
        guard let status = await process.runToExit() else {
            logger.warning("refresh hook could not run", metadata: ["program": "\(program)"])
            return false
        }
        if status != 0 { logger.warning("refresh hook failed", metadata: ["status": .stringConvertible(status)]) }
        return status == 0
    }
}
