import HAAPI
import HAAPIGateway

/// Why the device side of `login`, `keep` or `logout --via` could not go on: the gateway's address or the device
/// client's secret file is unusable (bad configuration), or the gateway could not be asked, does not offer device
/// authorization, or refused it.
///
/// ``message`` is for a terminal: it never holds a secret, a token or a device code.
public struct DeviceClientError: Error, Sendable, CustomStringConvertible {
    private enum Code: Sendable {
        case configuration
        case unreachable
        case unsupported
        case malformedAnswer
        case refused
    }

    private let code: Code
    /// What went wrong, for a terminal.
    public let message: String
    /// The OAuth error the gateway refused with, when it refused.
    public let oauthError: OAuthErrorResponse?

    private init(_ code: Code, _ message: String, oauthError: OAuthErrorResponse? = nil) {
        self.code = code
        self.message = message
        self.oauthError = oauthError
    }

    /// The gateway's address, the device client or its secret file cannot be used: nothing was sent.
    public static func configuration(_ message: String) -> Self { Self(.configuration, message) }
    /// The gateway could not be reached or answered with an HTTP failure.
    public static func unreachable(_ message: String) -> Self { Self(.unreachable, message) }
    /// The gateway does not offer what the device client needs (device authorization, its client authentication).
    public static func unsupported(_ message: String) -> Self { Self(.unsupported, message) }
    /// The gateway's answer does not follow RFC 8414 or RFC 8628.
    public static func malformedAnswer(_ message: String) -> Self { Self(.malformedAnswer, message) }
    /// The gateway refused with an OAuth error (`invalid_client`, say).
    public static func refused(_ error: OAuthErrorResponse, by endpoint: String) -> Self {
        Self(.refused, "the gateway's \(endpoint) refused: \(error.error)\(error.errorDescription.map { ": \($0)" } ?? "")", oauthError: error)
    }

    /// Whether the device's own configuration is at fault (exit status 78), rather than the gateway or the network (1).
    public var isConfiguration: Bool { code == .configuration }

    /// The exit status of a command stopped by this error: 78 for bad configuration, 1 otherwise.
    public var exitStatus: Int32 { isConfiguration ? StartupFailure.configurationStatus : 1 }

    public var description: String { message }
}
