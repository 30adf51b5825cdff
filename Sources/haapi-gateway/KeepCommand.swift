import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools

/// `haapi-gateway keep --token-file F`: keeps the tokens of `login` fresh. Refreshes when three quarters of the access
/// token's lifetime have passed, writes the new token model atomically (0600), runs an optional hook, backs off on
/// errors, and on `invalid_grant` deletes the token file and exits 1 with a message to sign in again.
struct KeepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keep",
        abstract: "Keep the tokens of 'login' fresh: refresh them before they expire, until stopped.",
        discussion:
            "Uses the upstream and client 'login' recorded in the token file (or the configured one), with the client authentication of the configuration (file, HAAPI_GATEWAY_… environment or flags); with --via URL the central gateway's token endpoint, as --device-client. Refreshes under the lock beside the token file, as 'token' does. Exit status: 0 stopped or --once done, 1 the refresh token is no longer valid (the token file is deleted: sign in again), the tokens are the embedded demo upstream's (which ended with its login) or another OAuth error, 78 bad configuration or token file."
    )

    @OptionGroup var options: ConfigurationOptions
    @OptionGroup var device: DeviceClientOptions
    @OptionGroup var tokenFile: TokenFileOption
    @Option(name: .customLong("exec"), help: .valued("program", HostToolOptionHelp.hook))
    var hook: String?
    @Flag(help: .init(HostToolOptionHelp.once))
    var once = false

    func validate() throws {
        try device.validate(against: options)
    }

    func run() async throws {
        let path = tokenFile.path
        let logger = terminalLogger(level: options.logLevel)
        _ = tokenFile.read()  // a missing or foreign file stops here, before the upstream is contacted
        if TokenFile.issuedByEmbeddedDemo(path) { exitWith(.embeddedDemoTokens(path)) }
        let issuer: TokenIssuer
        do {
            issuer = try await TokenIssuer.connect(flags: options.flags, device: device.flags, tokenPath: path, use: .refresh, logger: logger)
        } catch {
            exitWith(error)
        }
        let hook = hook.map(RefreshHook.init)
        let loop = RefreshLoop(
            keeper: TokenKeeper(path: path),
            manager: issuer.tokenManager,
            once: once,
            hook: hook,
            clock: ContinuousClock(),
            logger: logger
        )
        // Written unbuffered: a keeper runs for long, and whoever watches its output should see each refresh.
        let ending = await loop.run { line in FileHandle.standardOutput.write(Data(line.utf8)) }
        await issuer.shutdown()
        if let problem = ending.problem(tokenPath: path) { exitWith(problem) }
    }
}
