import ArgumentParser
import Foundation
import HAAPI
import HAAPIGateway
import Logging

/// `haapi-gateway logout --token-file F`: revokes the refresh token (RFC 7009) and deletes the token file.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke the tokens of 'login' at the upstream and delete the token file.",
        discussion: "Exit status: 0 revoked and deleted; 1 the upstream refused or could not be reached (the file is kept, to try again); 78 bad configuration or token file."
    )

    @OptionGroup var options: ConfigurationOptions

    @OptionGroup var tokenFile: TokenFileOption

    func run() async throws {
        let path = tokenFile.path
        var logger = Logger(label: "haapi-gateway") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let tokens = tokenFile.read().tokens
        let client = await UpstreamClient.make(options: options, logger: logger)
        let outcome: RevocationOutcome
        do {
            outcome = try await client.tokenManager.revoke(tokens)
        } catch {
            try? await client.shutdown()
            exitWith("haapi-gateway: the tokens could not be revoked (\(error.message)); \(path) was kept, try again", status: 1)
        }
        try? await client.shutdown()
        if case .oauthError(let error) = outcome {
            exitWith("haapi-gateway: the upstream refused the revocation: \(error.error); \(path) was kept", status: 1)
        }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            exitWith("haapi-gateway: revoked, but \(path) could not be deleted", status: 1)
        }
        print("Signed out: the tokens were revoked and \(path) deleted.")
    }
}
