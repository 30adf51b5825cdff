import ArgumentParser
import Foundation
import HAAPI
import HAAPIGateway
import HAAPIHostTools
import Logging

/// `haapi-gateway proxy --to https://api.example.com`: a local HTTP proxy on loopback that forwards each request to
/// that origin with the sign-in of `login` added (``HostProxy``), for programs that cannot use its tokens themselves.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Forward requests from this host to one API with the sign-in of 'login' added, DPoP-bound tokens too.",
        discussion:
            "Listens on --listen (loopback only) and forwards every request sent to it to the same path under --to, and nowhere else: CONNECT, TRACE, a request naming another host, a path with a . or .. segment (..;x too) and a path with a percent-escape that is not UTF-8 text (%ff) are refused, and so are requests from web pages (Origin, Sec-Fetch-*). Hop-by-hop fields and the client's own Authorization and DPoP are dropped; the proxy adds Authorization: Bearer <token>, or for a DPoP-bound token Authorization: DPoP <token> and a new DPoP proof (htm, htu of the target URL without query, ath, signed with the key in the token file). A use_dpop_nonce challenge is answered once with the server's nonce, which is kept for the next requests; for that a request body of at most 1 MiB (by its Content-Length) is held in memory, a larger one streams and its challenge goes to the client. Answers stream back. The tokens are read for every request and refreshed first, under the lock beside the token file as 'token' does, when they expire within --min-valid-seconds; when there are none (no sign-in, a refresh refused or failed), or the access token holds a control character, a space or anything but ASCII (which no header can carry), the answer is 503 with one line saying why, never the token; a target that cannot be reached, 502. One line per request on standard error (method, the path sent under --to without its query, status, milliseconds; never a token); --log-level warning silences them. The proxy's address is printed on standard output once it listens. SIGTERM or SIGINT stops it: it takes no new request, and those under way have --stop-seconds to end, whatever the target does; then the proxy exits 70. The configuration (upstream options, --via) is used only for a refresh: a problem with it answers that request 503 with its line. Exit status: 0 stopped; 70 a stop cut short at --stop-seconds; 78 --to, --listen, --host or --port refused (plain http to a host that is not loopback, an address that is not loopback); 69 the address is in use; 1 another failure to start."
    )

    @OptionGroup var host: HostTokenOptions
    @Option(help: .valued("url", HostToolOptionHelp.to))
    var to: String
    @Option(help: .valued("address:port", HostToolOptionHelp.listen))
    var listen: String = "127.0.0.1:\(ProxyListenAddress.defaultPort)"
    @Option(name: .customLong("min-valid-seconds"), help: .valued("seconds", HostToolOptionHelp.minimumValidSeconds))
    var minimumValidSeconds: Int = 60
    @Option(name: .customLong("stop-seconds"), help: .valued("seconds", HostToolOptionHelp.stopSeconds))
    var stopSeconds: Int = 10

    func validate() throws {
        guard (0...86_400).contains(minimumValidSeconds) else { throw ValidationError("--min-valid-seconds must be between 0 and 86400") }
        guard (1...600).contains(stopSeconds) else { throw ValidationError("--stop-seconds must be between 1 and 600") }
    }

    func run() async throws {
        let place: (target: ProxyTarget, address: ProxyListenAddress)
        do { place = try HostProxy.place(to: to, listen: listen, flags: host.options.flags) } catch { exitWith(error) }
        let logger = LoggingSettings(level: host.options.logLevel.flatMap { Logger.Level(rawValue: $0) } ?? .info).makeLogger(label: "haapi-gateway")
        let tokenPath = host.tokenFile.path
        if !FileManager.default.fileExists(atPath: tokenPath) {
            logger.warning("no sign-in in \(tokenPath) yet: every request is answered 503 until haapi-gateway login")
        }
        let (host, minimum) = (host, TimeInterval(minimumValidSeconds))
        let tokens: @Sendable () async -> Result<OAuthTokens, HostTokenProblem> = { await host.current(validFor: minimum).map(\.tokens) }
        let proxy = HostProxy(target: place.target, tokens: tokens, tokenFile: tokenPath, logger: logger)
        do {
            try await proxy.serve(listening: place.address, stopSeconds: stopSeconds, logger: logger) { line in
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        } catch {
            exitStarting(error, listening: place.address.host, port: place.address.port)
        }
    }
}
