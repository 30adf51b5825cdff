import ArgumentParser
import Foundation
import HAAPI
import HAAPIGateway
import Logging

/// `haapi-gateway keep --token-file F`: keeps the tokens of `login` fresh. Refreshes when three quarters of the access
/// token's lifetime have passed, writes the new token model atomically (0600), runs an optional hook, backs off on
/// errors, and on `invalid_grant` deletes the token file and exits 1 with a message to sign in again.
struct KeepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keep",
        abstract: "Keep the tokens of 'login' fresh: refresh them before they expire, until stopped.",
        discussion: """
            Uses the same upstream and client authentication as 'login' (configuration file, HAAPI_GATEWAY_… environment or \
            flags); with --via URL the central gateway's token endpoint, as --device-client. Exit status: 0 stopped or --once done, 1 the refresh token is no longer valid (the token file is deleted: \
            sign in again) or another OAuth error, 78 bad configuration or token file.
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @OptionGroup var device: DeviceClientOptions

    @OptionGroup var tokenFile: TokenFileOption

    @Option(name: .customLong("exec"), help: ArgumentHelp("A program run after each refresh (no arguments; HAAPI_GATEWAY_TOKEN_FILE names the file).", valueName: "program"))
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
        let issuer = await TokenIssuer.make(options: options, device: device, logger: logger)
        let keeper = TokenKeeper(path: path)
        var backoff = Duration.seconds(1)
        while true {
            let (tokens, written) = tokenFile.read()
            if !once {
                let wait = TokenKeeper.refreshDue(for: tokens, writtenAt: written).timeIntervalSinceNow
                if wait > 0 { try await Task.sleep(for: .milliseconds(Int64(wait * 1000))) }
            }
            switch await keeper.refresh(tokens, with: issuer.tokenManager) {
            case .refreshed(let merged):
                backoff = .seconds(1)
                // Written unbuffered: a keeper runs for long, and whoever watches its output should see each refresh.
                FileHandle.standardOutput.write(
                    Data("Refreshed the tokens in \(path); the access token expires in \(merged.expiresIn.map { "\($0) s" } ?? "an unknown time").\n".utf8))
                runHook(path: path, logger: logger)
                if once {
                    await issuer.shutdown()
                    return
                }
            case .failed(let error):
                logger.warning("refresh failed; retrying", metadata: ["error": "\(error.code)", "retryInSeconds": "\(backoff.components.seconds)"])
                if once { exitWith("haapi-gateway: the refresh failed: \(error.message)", status: 1) }
                try await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(60))
            case .noRefreshToken:
                exitWith("haapi-gateway: the tokens in \(path) have no refresh token; sign in again", status: 1)
            case .notWritten(let error):
                exitWith("haapi-gateway: refreshed, but \(error.message)", status: 1)
            case .signInAgain:
                exitWith("haapi-gateway: the refresh token is no longer valid (invalid_grant); \(path) was deleted. Sign in again with haapi-gateway login.", status: 1)
            case .refused(let error):
                exitWith("haapi-gateway: the token endpoint refused the refresh: \(error.error)\(error.errorDescription.map { ": \($0)" } ?? "")", status: 1)
            }
        }
    }

    /// Runs the hook without a shell, with a minimal environment; a failing hook is logged, never fatal.
    private func runHook(path: String, logger: Logger) {
        guard let hook else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: hook)
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HAAPI_GATEWAY_TOKEN_FILE": path]
        do {
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 { logger.warning("refresh hook failed", metadata: ["status": "\(process.terminationStatus)"]) }
        } catch {
            logger.warning("refresh hook could not run", metadata: ["program": "\(hook)"])
        }
    }
}
