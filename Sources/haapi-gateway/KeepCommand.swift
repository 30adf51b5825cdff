import ArgumentParser
import Foundation
import HAAPI
import HAAPIGateway
import HAAPIHostTools
import Logging

/// `haapi-gateway keep --token-file F`: keeps the tokens of `login` fresh. Refreshes when three quarters of the access
/// token's lifetime have passed, writes the new token model atomically (0600), runs an optional hook, backs off on
/// errors, and on `invalid_grant` deletes the token file and exits 1 with a message to sign in again.
struct KeepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keep",
        abstract: "Keep the tokens of 'login' fresh: refresh them before they expire, until stopped.",
        discussion: """
            Uses the upstream and client 'login' recorded in the token file (or the configured one), with the client \
            authentication of the configuration (file, HAAPI_GATEWAY_… environment or flags); with --via URL the central \
            gateway's token endpoint, as --device-client. Refreshes under the lock beside the token file, as 'token' does. \
            Exit status: 0 stopped or --once done, 1 the refresh token is no longer valid (the token file is deleted: \
            sign in again), the tokens are the embedded demo upstream's (which ended with its login) or another OAuth error, \
            78 bad configuration or token file.
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @OptionGroup var device: DeviceClientOptions

    @OptionGroup var tokenFile: TokenFileOption

    @Option(
        name: .customLong("exec"),
        help: ArgumentHelp("A program run after each refresh (no arguments; HAAPI_GATEWAY_TOKEN_FILE names the file).", valueName: "program")
    )
    var hook: String?

    @Flag(help: "Refresh once now and exit.")
    var once = false

    func validate() throws {
        try device.validate(against: options)
    }

    func run() async throws {
        let path = tokenFile.path
        let logger = terminalLogger(level: options.logLevel)
        _ = tokenFile.read()  // a missing or foreign file stops here, before the upstream is contacted
        if TokenFile.issuedByEmbeddedDemo(path) {
            exitWith(
                """
                haapi-gateway: the tokens in \(path) came from the embedded demo upstream, which ended with the login that issued them: \
                they cannot be refreshed; sign in again with an upstream (--upstream, \(ConfigurationKey.upstreamBaseURL.path))
                """,
                status: 1
            )
        }
        let issuer = await TokenIssuer.make(options: options, device: device, tokenPath: path, use: .refresh, logger: logger)
        let loop = RefreshLoop(
            keeper: TokenKeeper(path: path),
            manager: issuer.tokenManager,
            once: once,
            hook: hook.map(RefreshHook.init),
            clock: ContinuousClock(),
            logger: logger
        )
        // Written unbuffered: a keeper runs for long, and whoever watches its output should see each refresh.
        let ending = await loop.run { line in FileHandle.standardOutput.write(Data(line.utf8)) }
        await issuer.shutdown()
        switch ending {
        case .stopped: return
        case .unreadable(let error): exitWith("haapi-gateway: \(error.message)", status: 78)
        case .failed(let error): exitWith("haapi-gateway: the refresh failed: \(error.message)", status: 1)
        case .noRefreshToken: exitWith("haapi-gateway: the tokens in \(path) have no refresh token; sign in again", status: 1)
        case .notWritten(let error): exitWith("haapi-gateway: refreshed, but \(error.message)", status: 1)
        case .signInAgain:
            exitWith(
                "haapi-gateway: the refresh token is no longer valid (invalid_grant); \(path) was deleted. Sign in again with haapi-gateway login.",
                status: 1
            )
        case .notLocked(let error): exitWith("haapi-gateway: \(error.message)", status: 1)
        case .refused(let error):
            let refusal = error.error + (error.errorDescription.map { ": \($0)" } ?? "")
            exitWith("haapi-gateway: the token endpoint refused the refresh: \(LogText.untrusted(refusal))", status: 1)
        }
    }
}
