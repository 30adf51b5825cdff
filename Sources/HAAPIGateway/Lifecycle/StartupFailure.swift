import Foundation
import NIOCore

/// Why the gateway could not start, as one line for standard error and an exit status a supervisor can act on (the
/// statuses of `sysexits.h`): an address in use or not on this machine, a port that needs privileges, a file that is
/// missing or cannot be read, an invalid configuration.
public struct StartupFailure: Error, Sendable, CustomStringConvertible {
    /// The configuration is invalid (every problem listed): restarting will not help.
    public static let configurationStatus: Int32 = 78
    /// A file or directory it needs is missing or unreadable (a certificate, a key, the templates).
    public static let unreadableInputStatus: Int32 = 66
    /// The address to listen on is in use.
    public static let addressInUseStatus: Int32 = 69
    /// The address to listen on is not one of this machine's.
    public static let addressUnavailableStatus: Int32 = 68
    /// Listening on the port needs privileges the process does not have.
    public static let permissionDeniedStatus: Int32 = 77
    /// Anything else.
    public static let otherStatus: Int32 = 1

    /// The exit statuses, for `--help`.
    public static let exitStatusHelp =
        "Exit status: 0 done; 1 another failure; 66 a file it needs is missing or unreadable (TLS certificate or key, templates, a secret; the line names the user it runs as and the file's mode); 68 the address to listen on is not on this machine; 69 the address is already in use; 70 a stop cut short at \(ConfigurationKey.serverDrainSeconds.path) + \(ConfigurationKey.serverStopSeconds.path); 77 the port needs privileges (below 1024); 78 invalid configuration."

    /// The line for standard error (without the program name).
    public let message: String
    /// The process exit status.
    public let exitStatus: Int32

    public var description: String { message }

    /// A failure described by `message`, with `exitStatus`.
    package init(message: String, exitStatus: Int32) {
        self.message = message
        self.exitStatus = exitStatus
    }

    /// The failure behind `error`, thrown while starting a listener on `host`:`port` (the gateway's, unless the error
    /// names another listener); a URL in it is shown without its password (``SecretRedaction``).
    public init(_ error: any Error, listening host: String, port: Int) {
        let (message, exitStatus) = Self.classify(error, host: host, port: port)
        self.message = SecretRedaction.redactingURLPasswords(in: message)
        self.exitStatus = exitStatus
    }

    private static func classify(_ error: any Error, host: String, port: Int) -> (String, Int32) {
        switch error {
        case let failure as StartupFailure:
            (failure.message, failure.exitStatus)
        case let configuration as ConfigurationError:
            (configuration.description, configuration.exitStatus)
        case let gateway as GatewayError where gateway.code == .unreadableInput:
            (gateway.message, unreadableInputStatus)
        case let gateway as GatewayError where gateway.code == .configuration:
            ("invalid configuration: \(gateway.message)", configurationStatus)
        case let listen as ListenFailure:
            classify(listen.underlying, host: listen.host, port: listen.port)
        case let io as IOError where io.errnoCode == EADDRINUSE:
            ("cannot listen on \(address(host, port)): the address is already in use (another process listens there)", addressInUseStatus)
        case let io as IOError where io.errnoCode == EACCES:
            (
                "cannot listen on \(address(host, port)): permission denied (ports below 1024 need privileges; use a higher port or a proxy)",
                permissionDeniedStatus
            )
        case let io as IOError where io.errnoCode == EADDRNOTAVAIL:
            ("cannot listen on \(address(host, port)): the address is not one of this machine's", addressUnavailableStatus)
        default:
            ("could not start: \(error)", otherStatus)
        }
    }

    private static func address(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
