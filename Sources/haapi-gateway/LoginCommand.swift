import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIGatewayPostgres
import HAAPIHostTools
import Logging
import Synchronization

/// `haapi-gateway login`: one sign-in for a host without a browser, written to a private token file. Without `--via` it
/// runs a local gateway for the sign-in (``LocalLogin``); with `--via URL` it signs in through a central gateway as a
/// device client (``DeviceLogin``, RFC 8628). Either way the person signs in on their phone or another computer.
///
/// Exit status: 0 signed in; 1 the sign-in failed, was denied or cancelled (the reason on standard error); 2 no sign-in
/// in time; the startup statuses of ``StartupFailure`` (78 bad configuration, 69 address in use, …).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in once from a phone or another computer and write the tokens to a private file.",
        discussion: """
            Prints a link (working once, until --timeout-seconds) and a confirmation code. The page the link opens shows the \
            code and this host's name; the sign-in continues only when the person confirms they match. On success the token \
            model is written to --token-file (mode 0600, in a directory only you can enter) and a one-line summary is printed \
            (never a token). To reach this host from a phone, bind a network address (--host 0.0.0.0) and, behind a proxy, \
            set --public-url. With --via URL no local gateway starts: this host asks the central gateway at URL for a device \
            authorization as --device-client (RFC 8628), prints the link with the code in it and the code to type, and polls \
            until the person has signed in there (or the code or --timeout-seconds ran out); the local gateway's options \
            cannot be used with it. Exit status: 0 signed in, 1 failed, denied or cancelled, 2 timed out or the code \
            expired. A failure to start is one line on standard error. \(StartupFailure.exitStatusHelp)
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @OptionGroup var device: DeviceClientOptions

    @OptionGroup var tokenFile: TokenFileOption

    @Option(name: .customLong("timeout-seconds"), help: "How long the link works and the command waits for the sign-in.")
    var timeoutSeconds: Int = 600

    @Flag(help: "Print the result as one JSON object on standard output (the link then goes to standard error).")
    var json = false

    @Flag(help: "Also draw the link as a QR code in the terminal, to scan with a phone.")
    var qr = false

    func validate() throws {
        guard (1...86_400).contains(timeoutSeconds) else { throw ValidationError("--timeout-seconds must be between 1 and 86400") }
        try device.validate(against: options)
    }

    func run() async throws {
        let tokenPath = tokenFile.path
        let report: LoginReport
        if let gateway = device.gateway {
            let outcome = await signIn(via: gateway, tokenPath: tokenPath)
            let origin = device.deviceClient.map { TokenOrigin(issuedBy: .gateway, issuer: gateway.absoluteString, clientID: $0) }
            report = Self.conclude(outcome, tokenPath: tokenPath, json: json, embeddedDemo: false, origin: origin)
        } else {
            report = try await signInLocally(tokenPath: tokenPath)
        }
        if report.exitStatus != 0 { Foundation.exit(report.exitStatus) }
    }

    /// Writes the tokens (on success) and says how the sign-in ended, at once.
    private static func conclude(_ outcome: LoginOutcome, tokenPath: String, json: Bool, embeddedDemo: Bool, origin: TokenOrigin?) -> LoginReport {
        let report = LoginReport.conclude(outcome, tokenPath: tokenPath, json: json, embeddedDemo: embeddedDemo, origin: origin)
        if let text = report.standardOutput { FileHandle.standardOutput.write(Data(text.utf8)) }
        if let text = report.standardError { FileHandle.standardError.write(Data(text.utf8)) }
        return report
    }

    /// Through the central gateway at `gateway`, as its device client.
    private func signIn(via gateway: URL, tokenPath: String) async -> LoginOutcome {
        do {
            try TokenFile.prepareDirectory(for: tokenPath)
        } catch {
            exitStarting(error, listening: "", port: 0)
        }
        let login = DeviceLogin(gateway: gateway, credentials: device.credentials(), timeoutSeconds: timeoutSeconds)
        let (json, qr) = (json, qr)
        do {
            return try await login.run(logger: terminalLogger(level: options.logLevel)) { grant in
                (json ? FileHandle.standardError : FileHandle.standardOutput).write(Data(LoginBanner.device(grant, qr: qr).utf8))
            }
        } catch {
            exitWith("haapi-gateway: \(error.message)", status: error.exitStatus)
        }
    }

    /// Through a gateway of its own, for this one sign-in (with the embedded demo upstream when none is configured). The
    /// tokens are written, and the summary printed, as soon as the sign-in ends, before the gateway stops: a stop cut
    /// short at its deadline (exit 70) leaves them in place.
    /// - Returns: What was written and said.
    private func signInLocally(tokenPath: String) async throws -> LoginReport {
        let configuration: GatewayConfiguration
        do {
            configuration = try options.loadConfiguration(hostSide: true)
            try TokenFile.prepareDirectory(for: tokenPath)
        } catch {
            exitStarting(error, listening: "", port: 0)
        }
        var logging = configuration.logging
        // A terminal command stays quiet unless asked: warnings and errors only, by default.
        if options.logLevel == nil { logging.level = .warning }
        let logger = logging.makeLogger(label: "haapi-gateway")
        let (resolved, demo) = try await EmbeddedUpstream.start(for: configuration, logger: logger)
        let server = resolved.server
        let (json, qr, timeoutSeconds) = (json, qr, timeoutSeconds)
        var origin: TokenOrigin?
        if demo == nil, case .haapi(let upstream) = resolved.upstream {
            origin = TokenOrigin(issuedBy: .upstream, issuer: upstream.baseURL.absoluteString, clientID: upstream.clientID)
        }
        let (embeddedDemo, issuedBy) = (demo != nil, origin)
        let concluded = Mutex<LoginReport?>(nil)
        do {
            // What this run learns about the upstream (token-bound codes) is kept beside the token file for the next run.
            let login = LocalLogin(
                configuration: resolved,
                timeoutSeconds: timeoutSeconds,
                upstreamFactsFile: TokenFile.upstreamFactsPath(besideTokenFile: tokenPath),
                storageChoice: .bySessionsStore
            )
            let outcome = try await login.run(
                logger: logger,
                announce: { link, code in
                    let banner = LoginBanner.pairing(link: link, code: code, lifetimeSeconds: timeoutSeconds, qr: qr)
                    (json ? FileHandle.standardError : FileHandle.standardOutput).write(Data(banner.utf8))
                },
                keep: { outcome in
                    let report = Self.conclude(outcome, tokenPath: tokenPath, json: json, embeddedDemo: embeddedDemo, origin: issuedBy)
                    concluded.withLock { $0 = report }
                }
            )
            await demo?.shutdown()
            if let report = concluded.withLock({ $0 }) { return report }
            return Self.conclude(outcome, tokenPath: tokenPath, json: json, embeddedDemo: embeddedDemo, origin: issuedBy)
        } catch {
            await demo?.shutdown()
            exitStarting(error, listening: server.host, port: server.port)
        }
    }
}
