import Foundation
import HAAPIGateway
import HAAPIHostTools
import Logging

/// Prints `message` on standard error, a URL's password redacted (``SecretRedaction``), and exits with `status`.
func exitWith(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((SecretRedaction.redactingURLPasswords(in: message) + "\n").utf8))
    Foundation.exit(status)
}

/// Prints `haapi-gateway: ` and the problem's line on standard error and exits with its status.
func exitWith(_ problem: HostTokenProblem) -> Never {
    exitWith("haapi-gateway: \(problem.message)", status: problem.exitStatus)
}

/// Writes `message` as one line on standard error, as the configuration has the logs written, and exits with `status`:
/// `haapi-gateway: message` as text, or with `logging.format: json` a JSON object like every other log line (level
/// `critical`, the status as `exitStatus`, and `metadata`).
func exitWith(_ message: String, status: Int32, logging: LoggingSettings, metadata: Logger.Metadata = [:]) -> Never {
    guard logging.format == .json else { exitWith("haapi-gateway: \(message)", status: status) }
    var metadata = metadata
    metadata["exitStatus"] = .stringConvertible(status)
    logging.makeLogger(label: "haapi-gateway").critical("\(SecretRedaction.redactingURLPasswords(in: message))", metadata: metadata)
    Foundation.exit(status)
}

/// Prints why startup failed as one line on standard error (a JSON object with `logging.format: json`) and exits with
/// its status (``StartupFailure``).
func exitStarting(_ error: any Error, listening host: String, port: Int, logging: LoggingSettings = LoggingSettings()) -> Never {
    let failure = StartupFailure(error, listening: host, port: port)
    exitWith(failure.message, status: failure.exitStatus, logging: logging)
}

/// A logger for a terminal command: the gateway's text lines on standard error (control characters escaped), warnings
/// and errors unless `--log-level` says otherwise.
func terminalLogger(level: String?) -> Logger {
    LoggingSettings(level: level.flatMap { Logger.Level(rawValue: $0) } ?? .warning).makeLogger(label: "haapi-gateway")
}
