import HAAPIGateway
import NIOCore
import PostgresNIO

/// Why the database could not do what was asked: unreachable, too slow, refusing, or holding a schema this gateway does
/// not know. The caller turns it into a clear page ("try again"), never a crash. Its messages name no value, password
/// or key: for server errors only the SQLSTATE.
package struct PostgresStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable, machine-readable codes.
    package enum Code: String, Sendable, Equatable {
        /// The server cannot be reached, refused the connection or closed it.
        case unavailable
        /// No answer within the operation's time limit.
        case timedOut = "timed_out"
        /// The server refused the user name or password.
        case authenticationFailed = "authentication_failed"
        /// The server answered with an error (SQLSTATE in the message).
        case serverError = "server_error"
        /// The operation was cancelled before it ended (the gateway is stopping).
        case cancelled
        /// The database holds a schema newer than this gateway knows.
        case newerSchema = "newer_schema"
        /// Anything else.
        case other
    }

    /// The stable code.
    package let code: Code
    /// A message safe to log.
    package let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "\(code.rawValue): \(message)" }

    /// Whether the server refused for lack of a privilege (SQLSTATE 42501, `insufficient_privilege`).
    var isMissingPrivilege: Bool { code == .serverError && message.hasSuffix("(SQLSTATE 42501)") }

    /// The database's answer to `operation` did not come within `limit`.
    static func timedOut(_ operation: String, after limit: Duration) -> PostgresStorageError {
        PostgresStorageError(.timedOut, "\(operation): no answer from the database within \(limit.components.seconds) s")
    }

    /// `error` thrown by PostgresNIO while doing `operation`, described without values (PostgresNIO's own description
    /// hides everything; its debug description may show bound values).
    static func from(_ error: any Error, operation: String) -> PostgresStorageError {
        if let storage = error as? PostgresStorageError { return storage }
        if let psql = error as? PSQLError {
            switch psql.code {
            case .server:
                let state = psql.serverInfo?[.sqlState] ?? "?"
                if state == "28P01" || state == "28000" {
                    return PostgresStorageError(
                        .authenticationFailed,
                        "\(operation): the database refused the user name or password (SQLSTATE \(state))"
                    )
                }
                if state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03" || state == "53300" {
                    return PostgresStorageError(.unavailable, "\(operation): the database is not accepting work (SQLSTATE \(state))")
                }
                return PostgresStorageError(.serverError, "\(operation): the database answered with an error (SQLSTATE \(state))")
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
                return PostgresStorageError(.unavailable, "\(operation): \(describeConnectionFailure(psql.underlying) ?? "\(psql.code)")")
            case .sslUnsupported:
                return PostgresStorageError(.unavailable, "\(operation): the database does not offer TLS, which the sslmode requires")
            case .failedToAddSSLHandler:
                return PostgresStorageError(.unavailable, "\(operation): TLS could not be set up")
            case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
                return PostgresStorageError(.authenticationFailed, "\(operation): authentication failed (\(psql.code))")
            default:
                return PostgresStorageError(.other, "\(operation): \(psql.code)")
            }
        }
        if let decoding = error as? PostgresDecodingError {
            return PostgresStorageError(.other, "\(operation): a column could not be read (\(decoding.code))")
        }
        if let failure = describeConnectionFailure(error) { return PostgresStorageError(.unavailable, "\(operation): \(failure)") }
        return PostgresStorageError(.other, "\(operation): \(type(of: error))")
    }

    /// A connection failure in words (connection refused, host not found, a TLS failure), or nil when `error` is none.
    private static func describeConnectionFailure(_ error: (any Error)?) -> String? {
        guard let error else { return nil }
        if let io = error as? IOError { return "connection failed (\(io.description))" }
        let name = String(describing: type(of: error))
        if name.contains("NIOConnectionError") || name.contains("ChannelError") || name.contains("ConnectionPoolError") {
            return "connection failed (\(name))"
        }
        if name.contains("NIOSSL") || name.contains("BoringSSL") { return "TLS failed (\(name))" }
        return nil
    }
}
