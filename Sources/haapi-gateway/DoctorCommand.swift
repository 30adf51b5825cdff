import ArgumentParser
import Foundation
import HAAPIGateway

/// `haapi-gateway doctor`: checks the live upstream as `serve` would use it, one line per check, and says what to change
/// at the Curity side (named as Curity names it) when a sign-in cannot start.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the upstream as the gateway would use it, and say what to change in Curity when a sign-in cannot start.",
        discussion:
            "Takes the same configuration as serve (file, HAAPI_GATEWAY_… environment, flags). One line per check: ✓ as it must be, ✗ blocks every sign-in (with the Curity settings it can mean, most likely first), ! works but not fully, → what it saw or what to do where nothing can be checked from here. Checks discovery (OpenID Connect or RFC 8414 metadata, the issuer, the endpoints), the client's authentication, the HAAPI token, DPoP nonces, the authorize request (redirect URI, scopes), the first step, the ID-token algorithms and the JWKS's keys, the external-browser return URL to register and token-bound codes. It listens on nothing, reads the JWKS and starts one flow, which it abandons. Without \(ConfigurationKey.upstreamBaseURL.path) it checks the embedded demo upstream. Exit status: 0 a sign-in can start; 1 something blocks it; 78 invalid configuration."
    )

    @OptionGroup var options: ConfigurationOptions

    @Flag(help: "Print the report as one JSON object (upstream, clientID, signInCanStart, checks: name, result, found, fix).")
    var json = false

    func run() async throws {
        let configuration = options.loadConfigurationOrExit()
        var logger = configuration.logging.makeLogger(label: "haapi-gateway")
        logger.logLevel = max(logger.logLevel, .warning)
        let (resolved, demo) = try await EmbeddedUpstream.start(for: configuration, logger: logger)
        guard case .haapi(let client) = resolved.upstream else { throw ExitCode(1) }
        let report = await UpstreamDoctor(configuration: client, publicURL: resolved.server.publicBaseURL, logger: logger).examine()
        await demo?.shutdown()
        FileHandle.standardOutput.write(Data((json ? report.json : report.text).utf8))
        throw ExitCode(report.exitStatus)
    }
}
