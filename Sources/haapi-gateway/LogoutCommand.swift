import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools

/// `haapi-gateway logout --token-file F`: revokes the tokens (RFC 7009) at the server they came from and deletes the
/// token file (``TokenRevoker``). Tokens of the embedded demo upstream, which ended with the `login` that issued them,
/// have no server left to revoke them: their file is deleted without asking any.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke the tokens of 'login' at the upstream (or the central gateway, --via) and delete the token file.",
        discussion:
            "Without --via the refresh token is revoked at the upstream (the access token when there is none); with --via URL the refresh token and then the access token are revoked at the central gateway's revocation endpoint, as --device-client. Tokens of the embedded demo upstream (login without an upstream) cannot be used or revoked once that login has ended: their file is deleted and nothing is asked. Exit status: 0 revoked (or nothing to revoke) and deleted; 1 the server refused or could not be reached (the file is kept, to try again); 78 bad configuration or token file."
    )

    @OptionGroup var options: ConfigurationOptions
    @OptionGroup var device: DeviceClientOptions
    @OptionGroup var tokenFile: TokenFileOption

    func validate() throws {
        try device.validate(against: options)
    }

    func run() async throws {
        let path = tokenFile.path
        let tokens = tokenFile.read().tokens
        if TokenFile.issuedByEmbeddedDemo(path) {
            switch TokenRevoker.discardEmbeddedDemo(tokenFile: path) {
            case .success(let line): print(line)
            case .failure(let problem): exitWith(problem)
            }
            return
        }
        let issuer: TokenIssuer
        do {
            let logger = terminalLogger(level: options.logLevel)
            issuer = try await TokenIssuer.connect(flags: options.flags, device: device.flags, tokenPath: path, use: .revoke, logger: logger)
        } catch {
            exitWith(error)
        }
        let outcome = await TokenRevoker(path: path, selection: issuer.revocation).signOut(tokens, with: issuer.tokenManager)
        await issuer.shutdown()
        switch outcome.report(tokenPath: path, server: issuer.name) {
        case .success(let line): print(line)
        case .failure(let problem): exitWith(problem)
        }
    }
}
