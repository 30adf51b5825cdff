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
        discussion: """
            Without --via the refresh token is revoked at the upstream (the access token when there is none); with --via URL \
            the refresh token and then the access token are revoked at the central gateway's revocation endpoint, as \
            --device-client. Tokens of the embedded demo upstream (login without an upstream) cannot be used or revoked once \
            that login has ended: their file is deleted and nothing is asked. Exit status: 0 revoked (or nothing to revoke) \
            and deleted; 1 the server refused or could not be reached (the file is kept, to try again); 78 bad configuration \
            or token file.
            """
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
            guard TokenRevoker.discard(tokenFile: path) == .signedOut else { exitWith("haapi-gateway: \(path) could not be deleted", status: 1) }
            print(
                """
                Signed out: the tokens came from the embedded demo upstream, which ended with the login that issued them, so nothing can \
                use them and there was nothing to revoke; \(path) deleted.
                """
            )
            return
        }
        let issuer = await TokenIssuer.make(
            options: options,
            device: device,
            tokenPath: path,
            use: .revoke,
            logger: terminalLogger(level: options.logLevel)
        )
        let outcome = await TokenRevoker(path: path, selection: issuer.revocation).signOut(tokens, with: issuer.tokenManager)
        await issuer.shutdown()
        switch outcome {
        case .signedOut:
            print("Signed out: the tokens were revoked and \(path) deleted.")
        case .failed(let error):
            exitWith("haapi-gateway: the tokens could not be revoked (\(error.message)); \(path) was kept, try again", status: 1)
        case .refused(let error):
            exitWith("haapi-gateway: the \(issuer.name) refused the revocation: \(LogText.untrusted(error.error)); \(path) was kept", status: 1)
        case .notDeleted:
            exitWith("haapi-gateway: revoked, but \(path) could not be deleted", status: 1)
        }
    }
}
