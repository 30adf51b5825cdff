import ArgumentParser
import Foundation
import HAAPI
import HAAPIGateway

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
            file: sign in again) or failed, no ID token, or --header for DPoP-bound tokens; 78 bad configuration or token file.
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @OptionGroup var device: DeviceClientOptions

    @OptionGroup var tokenFile: TokenFileOption

    @Option(
        name: .customLong("min-valid-seconds"),
        help: ArgumentHelp("Refresh first when the access token expires within this many seconds.", valueName: "seconds")
    )
    var minimumValidSeconds: Int = 60

    @Flag(name: .customLong("id-token"), help: "Print the ID token instead.")
    var idToken = false

    @Flag(help: "Print a whole Authorization header value (Bearer …); refused for DPoP-bound tokens, which need a proof per request.")
    var header = false

    @Flag(help: "Print one JSON object: tokenType, expiresAt, expiresIn, scope and subject (no token).")
    var json = false

    func validate() throws {
        guard (0...86_400).contains(minimumValidSeconds) else { throw ValidationError("--min-valid-seconds must be between 0 and 86400") }
        guard [idToken, header, json].filter({ $0 }).count <= 1 else { throw ValidationError("give at most one of --id-token, --header and --json") }
        try device.validate(against: options)
    }

    func run() async throws {
        let path = tokenFile.path
        guard FileManager.default.fileExists(atPath: path) else {
            exitWith("haapi-gateway: no sign-in in \(path): run haapi-gateway login", status: 1)
        }
        var (tokens, written) = tokenFile.read()
        let minimum = TimeInterval(minimumValidSeconds)
        if !TokenKeeper.areValid(tokens, writtenAt: written, for: minimum) {
            (tokens, written) = await refreshed(tokens, path: path, minimum: minimum)
        }
        FileHandle.standardOutput.write(Data((output(tokens, written: written, path: path) + "\n").utf8))
    }

    /// The tokens after a refresh under the file's lock (or another caller's), or the process ended saying why not.
    private func refreshed(_ tokens: OAuthTokens, path: String, minimum: TimeInterval) async -> (OAuthTokens, Date) {
        if TokenFile.issuedByEmbeddedDemo(path) {
            exitWith(
                "haapi-gateway: the tokens in \(path) came from the embedded demo upstream, which ended with the login that issued them: they cannot be refreshed; sign in again with haapi-gateway login and an upstream (--upstream, upstream.baseURL)",
                status: 1
            )
        }
        let logger = terminalLogger(level: options.logLevel)
        let (options, device) = (options, device)
        var issuer: TokenIssuer?
        let outcome = await TokenKeeper(path: path).refreshOnce(
            after: tokens,
            stillValid: { TokenKeeper.areValid($0, writtenAt: $1, for: minimum) },
            manager: { () async throws(HAAPIError) -> TokenManager in
                let made = await TokenIssuer.make(options: options, device: device, tokenPath: path, use: .refresh, logger: logger)
                issuer = made
                return made.tokenManager
            }
        )
        await issuer?.shutdown()
        switch outcome {
        case .refreshed, .refreshedElsewhere:
            do {
                return try TokenFile.read(path)
            } catch {
                exitWith("haapi-gateway: \(error.message)", status: 78)
            }
        case .signInAgain:
            exitWith(
                "haapi-gateway: the refresh token is no longer valid (invalid_grant); \(path) was deleted. Sign in again with haapi-gateway login.",
                status: 1
            )
        case .unreadable:
            exitWith("haapi-gateway: no sign-in in \(path) any more: run haapi-gateway login", status: 1)
        case .noRefreshToken:
            exitWith(
                "haapi-gateway: the access token in \(path) expires within \(minimumValidSeconds) s and there is no refresh token: sign in again with haapi-gateway login",
                status: 1
            )
        case .failed(let error): exitWith("haapi-gateway: the refresh failed: \(error.message)", status: 1)
        case .notWritten(let error): exitWith("haapi-gateway: refreshed, but \(error.message)", status: 1)
        case .notLocked(let error): exitWith("haapi-gateway: \(error.message)", status: 1)
        case .refused(let error):
            exitWith(
                "haapi-gateway: the token endpoint refused the refresh: \(LogText.untrusted(error.error + (error.errorDescription.map { ": \($0)" } ?? "")))",
                status: 1
            )
        }
    }

    /// What is printed: the access token, the ID token, a header value or the JSON summary.
    private func output(_ tokens: OAuthTokens, written: Date, path: String) -> String {
        if idToken {
            guard let token = tokens.idToken else {
                exitWith("haapi-gateway: the tokens in \(path) have no ID token (the sign-in did not ask for the openid scope)", status: 1)
            }
            return token
        }
        if header {
            guard !tokens.isDPoPBound else {
                exitWith(
                    "haapi-gateway: the access token in \(path) is DPoP-bound: every request needs a DPoP proof made with the key in that file, which a header value alone cannot carry",
                    status: 1
                )
            }
            return "Bearer " + tokens.accessToken
        }
        guard json else { return tokens.accessToken }
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
