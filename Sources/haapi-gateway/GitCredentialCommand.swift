import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools

/// `haapi-gateway git-credential`: git's credential helper (git-credential(1)), which `setup-git` configures for a host.
/// `get` answers with a fixed username and the access token as the password, refreshed first when it expires within a
/// minute; `store` and `erase` keep and delete nothing.
struct GitCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential",
        abstract: "git's credential helper: the access token of 'login' as the password (configured by setup-git).",
        discussion:
            "git runs it with an operation and the request on standard input (key=value lines). get answers username=\(GitCredentialAnswer.username), password=<the access token> and password_expiry_utc (its expiry, Unix time), the token refreshed first when it expires within \(Int(CredentialHelperToken.minimumValidSeconds)) s, under the token file's lock as token refreshes; it answers nothing for plain http to a host other than this one (a loopback address), which would carry the token in clear, and nothing while git would also hand the token to another credential helper for that URL (git config's credential.helper values, in git's order: a generic credential.helper store configured after setup-git's lines would write it to ~/.git-credentials). store and erase read the request and keep or delete nothing (erase never ends the sign-in); other operations are ignored, as git-credential(1) asks. DPoP-bound tokens are refused: git cannot send the proof each request needs (use haapi-gateway proxy). Exit status: 0 answered, or nothing to answer; 1 no sign-in (run haapi-gateway login), the refresh refused or failed, DPoP-bound tokens, a request that is not key=value lines, another helper that would be handed the token; 78 bad configuration or token file."
    )

    @OptionGroup var host: HostTokenOptions

    @Argument(help: .valued("operation", "git's operation: get, store or erase."))
    var operation: String

    func run() async throws {
        let input = String(decoding: await StandardInput.readToEnd(), as: UTF8.self)
        guard operation == "get" else { return }
        let host = host
        let (entries, tokenPath) = (GitCredentialHelperChain.configuredEntries, host.tokenFile.path)
        let outcome = await GitCredentialAnswer.get(input: input, helperEntries: entries, tokenPath: tokenPath) { await host.current(validFor: $0) }
        switch outcome {
        case .answer(let text): FileHandle.standardOutput.write(Data(text.utf8))
        case .declined(let line): FileHandle.standardError.write(Data((line + "\n").utf8))
        case .refused(let problem): exitWith(problem)
        }
    }
}
