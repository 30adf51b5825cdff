import Foundation
import HAAPIGateway
import Logging
import Synchronization

/// One run of `login` once its options are checked: the sign-in through a gateway of its own (``LocalLogin``) or
/// through a central gateway as its device client (``DeviceLogin``), what it shows first (``LoginBanner``), and its end:
/// the tokens written and the summary said (``LoginReport``) as soon as the sign-in ends.
public struct LoginRun: Sendable {
    /// The token file.
    public let tokenPath: String
    /// How long the link works and the run waits for the sign-in.
    public let timeoutSeconds: Int
    /// Whether the result is one JSON object on standard output (the link then goes to standard error).
    public let json: Bool
    /// Whether the link is also drawn as a QR code.
    public let qr: Bool
    /// Writes text to standard output (`false`) or standard error (`true`).
    let write: @Sendable (_ text: String, _ toStandardError: Bool) -> Void

    /// - Parameters:
    ///   - tokenPath: The token file.
    ///   - timeoutSeconds: How long the link works and the run waits for the sign-in.
    ///   - json: Whether the result is one JSON object (the link then goes to standard error).
    ///   - qr: Whether the link is also drawn as a QR code.
    ///   - write: Writes text to standard output (`false`) or standard error (`true`).
    public init(
        tokenPath: String,
        timeoutSeconds: Int,
        json: Bool,
        qr: Bool,
        write: @escaping @Sendable (_ text: String, _ toStandardError: Bool) -> Void
    ) {
        (self.tokenPath, self.timeoutSeconds, self.json, self.qr, self.write) = (tokenPath, timeoutSeconds, json, qr, write)
    }

    /// Writes the tokens (on success) and says how the sign-in ended, at once.
    public func conclude(_ outcome: LoginOutcome, embeddedDemo: Bool, origin: TokenOrigin?) -> LoginReport {
        let report = LoginReport.conclude(outcome, tokenPath: tokenPath, json: json, embeddedDemo: embeddedDemo, origin: origin)
        if let text = report.standardOutput { write(text, false) }
        if let text = report.standardError { write(text, true) }
        return report
    }

    /// Through the central gateway at `gateway`, as its device client; the problem when the token file's directory or
    /// the device client cannot be set up, or the sign-in cannot be asked for.
    public func signIn(via gateway: URL, device: DeviceClientFlags, logger: Logger) async throws(HostTokenProblem) -> LoginReport {
        let credentials: DeviceClientCredentials
        do {
            try TokenFile.prepareDirectory(for: tokenPath)
        } catch {
            let failure = StartupFailure(error, listening: "", port: 0)
            throw HostTokenProblem(failure.message, exitStatus: failure.exitStatus)
        }
        credentials = try device.credentials()
        let login = DeviceLogin(gateway: gateway, credentials: credentials, timeoutSeconds: timeoutSeconds)
        let outcome: LoginOutcome
        do {
            outcome = try await login.run(logger: logger) { grant in write(LoginBanner.device(grant, qr: qr), json) }
        } catch {
            throw HostTokenProblem(error.message, exitStatus: error.exitStatus)
        }
        let origin = device.deviceClient.map { TokenOrigin(issuedBy: .gateway, issuer: gateway.absoluteString, clientID: $0) }
        return conclude(outcome, embeddedDemo: false, origin: origin)
    }

    /// Through a gateway of its own, for this one sign-in. The tokens are written, and the summary said, as soon as the
    /// sign-in ends, before the gateway stops: a stop cut short at its deadline (exit 70) leaves them in place. What
    /// this run learns about the upstream (token-bound codes) is kept beside the token file for the next run.
    /// - Parameters:
    ///   - configuration: The configuration with the upstream to use.
    ///   - embeddedDemo: Whether that upstream is the embedded demo server (its tokens end with this run).
    ///   - storageChoice: Where the gateway keeps its state.
    /// - Returns: What was written and said.
    /// - Throws: What stops the gateway from starting.
    public func signInLocally(
        configuration: GatewayConfiguration,
        embeddedDemo: Bool,
        storageChoice: GatewayStorageChoice,
        logger: Logger
    ) async throws -> LoginReport {
        let origin = embeddedDemo ? nil : TokenOrigin.upstream(of: configuration)
        let concluded = Mutex<LoginReport?>(nil)
        let login = LocalLogin(
            configuration: configuration,
            timeoutSeconds: timeoutSeconds,
            upstreamFactsFile: TokenFile.upstreamFactsPath(besideTokenFile: tokenPath),
            storageChoice: storageChoice
        )
        let outcome = try await login.run(
            logger: logger,
            announce: { link, code in
                write(LoginBanner.pairing(link: link, code: code, lifetimeSeconds: timeoutSeconds, qr: qr), json)
            },
            keep: { outcome in
                let report = conclude(outcome, embeddedDemo: embeddedDemo, origin: origin)
                concluded.withLock { $0 = report }
            }
        )
        if let report = concluded.withLock({ $0 }) { return report }
        return conclude(outcome, embeddedDemo: embeddedDemo, origin: origin)
    }
}
