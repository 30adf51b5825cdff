import ArgumentParser
import Foundation
import HAAPI
import HAAPIGateway
import HAAPIHostTools

/// `haapi-gateway token`: prints the access token of the token file, refreshed first when it expires within
/// `--min-valid-seconds`, for scripts and tools on the host (`curl -H "Authorization: $(haapi-gateway token --header)"`).
/// A refresh is made under the token file's lock, so that many callers at once make one.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print the access token of 'login', refreshed first when it expires soon.",
        discussion: """
            Reads the token file; when the access token expires within --min-valid-seconds it is refreshed first, under a lock \
            beside the file (<file>.lock), so that any number of callers at once make one refresh and print the same token. \
            The refresh goes where the tokens came from: the upstream and client 'login' recorded in the file (its client \
            authentication from the configuration, as for 'login'), or the configured upstream, or --via a central gateway. \
            Exit status: 0 printed; 1 no sign-in (run haapi-gateway login), the refresh refused (invalid_grant deletes the \
            file: sign in again) or failed, no ID token, or --header for DPoP-bound tokens (use 'proxy', which adds a proof \
            to each request); 78 bad configuration or token file, or a token to print that holds a control character, a space \
            or anything but ASCII (never printed).
            """
    )

    @OptionGroup var host: HostTokenOptions

    @Option(
        name: .customLong("min-valid-seconds"),
        help: ArgumentHelp("Refresh first when the access token expires within this many seconds.", valueName: "seconds")
    )
    var minimumValidSeconds: Int = 60

    @Flag(name: .customLong("id-token"), help: "Print the ID token instead.")
    var idToken = false

    @Flag(
        help: "Print a whole Authorization header value (Bearer …); refused for DPoP-bound tokens, which need a proof per request: use 'proxy'."
    )
    var header = false

    @Flag(help: "Print one JSON object: tokenType, expiresAt, expiresIn, scope and subject (no token).")
    var json = false

    func validate() throws {
        guard (0...86_400).contains(minimumValidSeconds) else { throw ValidationError("--min-valid-seconds must be between 0 and 86400") }
        guard [idToken, header, json].filter({ $0 }).count <= 1 else { throw ValidationError("give at most one of --id-token, --header and --json") }
    }

    func run() async throws {
        let (tokens, written) = await host.currentOrExit(validFor: TimeInterval(minimumValidSeconds))
        FileHandle.standardOutput.write(Data((output(tokens, written: written, path: host.tokenFile.path) + "\n").utf8))
    }

    /// `token` as it is printed, or the process ended with one line (status 78) when it holds a control character, a
    /// space or anything but ASCII (``HostTokenText``): printed, it would break the script's line or header that uses it.
    private func usable(_ token: String, what: String, path: String) -> String {
        switch HostTokenText.checked(token, what: what, path: path) {
        case .success(let token): return token
        case .failure(let problem): exitWith("haapi-gateway: \(problem.message)", status: problem.exitStatus)
        }
    }

    /// What is printed: the access token, the ID token, a header value or the JSON summary.
    private func output(_ tokens: OAuthTokens, written: Date, path: String) -> String {
        if idToken {
            guard let token = tokens.idToken else {
                exitWith("haapi-gateway: the tokens in \(path) have no ID token (the sign-in did not ask for the openid scope)", status: 1)
            }
            return usable(token, what: "ID token", path: path)
        }
        if header {
            guard !tokens.isDPoPBound else {
                exitWith(
                    """
                    haapi-gateway: the access token in \(path) is DPoP-bound: every request needs a DPoP proof made with the key in that \
                    file, which a header value alone cannot carry; haapi-gateway proxy --to URL adds one to every request it forwards
                    """,
                    status: 1
                )
            }
            return "Bearer " + usable(tokens.accessToken, what: "access token", path: path)
        }
        guard json else { return usable(tokens.accessToken, what: "access token", path: path) }
        var summary: [String: Any] = ["tokenType": tokens.tokenType]
        if let expiry = TokenKeeper.expiry(of: tokens, writtenAt: written) {
            summary["expiresAt"] = ISO8601DateFormatter().string(from: expiry)
            summary["expiresIn"] = max(0, Int(expiry.timeIntervalSinceNow.rounded(.down)))
        }
        summary["scope"] = tokens.scope
        summary["subject"] = IDTokenClaims.subject(of: tokens.idToken)
        let data = (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
