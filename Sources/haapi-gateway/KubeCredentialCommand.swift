import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools

/// `haapi-gateway kube-credential`: a Kubernetes client-go credential plugin (kubectl's `exec` user): prints an
/// `ExecCredential` with the ID token of `login` (what the Kubernetes OIDC authenticator checks), or its access token,
/// and the token's expiry.
struct KubeCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kube-credential",
        abstract: "kubectl's exec credential plugin: an ExecCredential with the ID token of 'login' (or its access token).",
        discussion:
            "Prints one ExecCredential (JSON) with status.token, the ID token (what the API server's OIDC authenticator checks: its issuer and client id are the sign-in's), or with --access-token the access token, and status.expirationTimestamp (RFC 3339, UTC: the ID token's exp, or the access token's expiry), until which kubectl uses it without asking again. The apiVersion is the one KUBERNETES_EXEC_INFO names (client.authentication.k8s.io/v1 or v1beta1), else v1. The token is refreshed first when it expires within \(Int(CredentialHelperToken.minimumValidSeconds)) s, under the token file's lock as token refreshes. The ID token is not bound to a DPoP key and is given whatever the access token is; a DPoP-bound access token is refused (use haapi-gateway proxy). Exit status: 0 printed; 1 no sign-in (run haapi-gateway login), the refresh refused or failed, no ID token, --access-token for DPoP-bound tokens; 78 bad configuration or token file, or an apiVersion it does not answer."
    )

    @OptionGroup var host: HostTokenOptions

    @Flag(name: .customLong("access-token"), help: "Give the access token instead of the ID token.")
    var accessToken = false

    func run() async throws {
        let version: ExecCredentialVersion
        switch ExecCredentialVersion.requested(by: ProcessInfo.processInfo.environment["KUBERNETES_EXEC_INFO"]) {
        case .success(let requested): version = requested
        case .failure(let problem): exitWith(problem)
        }
        let host = host
        let answer = await ExecCredential.get(version: version, accessToken: accessToken, tokenPath: host.tokenFile.path) { minimum in
            await host.current(validFor: minimum)
        }
        switch answer {
        case .success(let credential): print(credential.json)
        case .failure(let problem): exitWith(problem)
        }
    }
}
