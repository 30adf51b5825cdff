import Foundation
import HAAPI
import HAAPIGateway
import HAAPIHostTools
import Logging

/// The HAAPI client of the configured upstream, for the commands that use tokens after sign-in (`keep`, `logout`).
enum UpstreamClient {
    /// - Parameters:
    ///   - tokenPath: The token file, for messages.
    ///   - use: What the command does with the tokens, for messages.
    /// - Returns: A client, or exits with ``connect(options:tokenPath:use:logger:)``'s problem (78 when the configuration
    ///   names no real upstream, 1 when it cannot be reached).
    static func make(options: ConfigurationOptions, tokenPath: String, use: TokenIssuer.Use, logger: Logger) async -> HAAPIClient {
        do {
            return try await connect(options: options, tokenPath: tokenPath, use: use, logger: logger)
        } catch {
            exitWith("haapi-gateway: \(error.message)", status: error.exitStatus)
        }
    }

    /// A client, or why not as a value, for a command that goes on after a failed refresh (`proxy`).
    /// - Parameters:
    ///   - tokenPath: The token file, for messages.
    ///   - use: What the command does with the tokens, for messages.
    /// - Throws: 78 when the configuration names no real upstream (the embedded demo upstream lives only as long as the
    ///   command that started it, so its tokens cannot be refreshed or revoked later: the line says what to do with such
    ///   a file) or cannot be loaded; 1 when the upstream cannot be reached.
    static func connect(
        options: ConfigurationOptions,
        tokenPath: String,
        use: TokenIssuer.Use,
        logger: Logger
    ) async throws(HostTokenProblem)
        -> HAAPIClient
    {
        var effective = options
        let loaded = Result { () throws(ConfigurationError) in try options.loadConfiguration(hostSide: true) }
        // The configuration names no upstream (a client secret alone is then a mistake): the one `login` recorded in the
        // token file, with this configuration's client authentication (a secret from the file, the environment or a flag).
        if (try? loaded.get())?.upstream.isHAAPI != true, let origin = TokenFile.origin(of: tokenPath), origin.issuedBy == .upstream {
            effective.upstream = origin.issuer
            effective.clientID = effective.clientID ?? origin.clientID
        }
        let configuration: GatewayConfiguration
        do {
            configuration = effective.upstream == options.upstream ? try loaded.get() : try effective.loadConfiguration(hostSide: true)
        } catch {
            throw HostTokenProblem(error.description, exitStatus: 78)
        }
        guard case .haapi(let upstream) = configuration.upstream else {
            let demo =
                switch use {
                case .revoke: "nothing can use them any more, so just delete \(tokenPath)"
                case .refresh: "they cannot be refreshed: sign in again with an upstream"
                }
            throw HostTokenProblem(
                """
                no upstream is configured to \(use == .revoke ? "revoke" : "refresh") the tokens of \(tokenPath) at: set the one they came from \
                (--upstream, \(ConfigurationKey.upstreamBaseURL.path)); if they came from the embedded demo upstream (login without one), which \
                ended with that login, \(demo)
                """,
                exitStatus: 78
            )
        }
        do {
            return try await HAAPIClient(configuration: upstream, logger: logger)
        } catch {
            throw HostTokenProblem("the upstream could not be reached: \(error.message)")
        }
    }
}

/// Prints `message` on standard error, a URL's password redacted (``SecretRedaction``), and exits with `status`.
func exitWith(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((SecretRedaction.redactingURLPasswords(in: message) + "\n").utf8))
    Foundation.exit(status)
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

/// The value of `body`, or, when it throws, `cleanup` and then ``exitStarting(_:listening:port:logging:)``.
func orExitStarting<Value>(
    listening host: String,
    port: Int,
    cleanup: () async -> Void = {},
    _ body: () async throws -> Value
) async -> Value {
    do {
        return try await body()
    } catch {
        await cleanup()
        exitStarting(error, listening: host, port: port)
    }
}
