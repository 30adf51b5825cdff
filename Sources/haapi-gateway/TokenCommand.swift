import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools

/// `haapi-gateway token`: prints the access token of the token file, refreshed first when it expires within
/// `--min-valid-seconds`, for scripts and tools on the host (`curl -H "Authorization: $(haapi-gateway token --header)"`).
/// A refresh is made under the token file's lock, so that many callers at once make one.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print the access token of 'login', refreshed first when it expires soon.",
        discussion:
            "Reads the token file; when the access token expires within --min-valid-seconds it is refreshed first, under a lock beside the file (<file>.lock), so that any number of callers at once make one refresh and print the same token. The refresh goes where the tokens came from: the upstream and client 'login' recorded in the file (its client authentication from the configuration, as for 'login'), or the configured upstream, or --via a central gateway. Exit status: 0 printed; 1 no sign-in (run haapi-gateway login), the refresh refused (invalid_grant deletes the file: sign in again) or failed, no ID token, or --header for DPoP-bound tokens (use 'proxy', which adds a proof to each request); 78 bad configuration or token file, or a token to print that holds a control character, a space or anything but ASCII (never printed)."
    )

    @OptionGroup var host: HostTokenOptions
    @Option(name: .customLong("min-valid-seconds"), help: .valued("seconds", "Refresh first when the access token expires within this many seconds."))
    var minimumValidSeconds: Int = 60
    @Flag(name: .customLong("id-token"), help: "Print the ID token instead.")
    var idToken = false
    @Flag(help: "Print a whole Authorization header value (Bearer …); refused for DPoP-bound tokens, which need a proof per request: use 'proxy'.")
    var header = false
    @Flag(help: "Print one JSON object: tokenType, expiresAt, expiresIn, scope and subject (no token).")
    var json = false
    func validate() throws {
        guard (0...86_400).contains(minimumValidSeconds) else { throw ValidationError("--min-valid-seconds must be between 0 and 86400") }
        guard TokenPrintout.chosen(idToken: idToken, header: header, json: json) != nil else {
            throw ValidationError("give at most one of --id-token, --header and --json")
        }
    }

    func run() async throws {
        let (tokens, written) = await host.currentOrExit(validFor: TimeInterval(minimumValidSeconds))
        let printout = TokenPrintout.chosen(idToken: idToken, header: header, json: json) ?? .accessToken
        switch printout.text(of: tokens, writtenAt: written, path: host.tokenFile.path) {
        case .success(let text): FileHandle.standardOutput.write(Data((text + "\n").utf8))
        case .failure(let problem): exitWith(problem)
        }
    }
}
