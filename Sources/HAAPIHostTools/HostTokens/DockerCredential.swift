import Foundation

/// What the Docker credential helper answers `get` (the docker-credential-helpers protocol: the server URL on standard
/// input, `{"ServerURL":…,"Username":…,"Secret":…}` on standard output), and the protocol's messages.
public struct DockerCredential: Sendable, Equatable {
    /// The username sent with the token. Registries that take an OAuth access token as the password check the token,
    /// not the name; this one says what the password is, as Google's registries want it with an access token
    /// (`docker login -u oauth2accesstoken`). Never `<token>`: with that name Docker takes the secret for a registry
    /// identity token and trades it at the registry's own token endpoint (docker/cli `cli/config/credentials/native_store.go`).
    public static let username = "oauth2accesstoken"

    /// The protocol's answer to a server the helper has no credentials for, on standard output with exit status 1:
    /// docker-credential-helpers `credentials/error.go`, `errCredentialsNotFoundMessage`, which Docker and its clients
    /// recognise (`IsErrCredentialsNotFoundMessage`; docker-py's `CredentialsNotFound`) and then go on without.
    public static let notFoundMessage = "credentials not found in native keychain"

    /// The protocol's answer to an empty server URL (`credentials/error.go`, `errCredentialsMissingServerURLMessage`).
    public static let missingServerURLMessage = "no credentials server URL"

    /// The server URL as asked.
    public let serverURL: String
    /// The token, sent as the secret.
    public let token: CredentialHelperToken

    public init(serverURL: String, token: CredentialHelperToken) {
        self.serverURL = serverURL
        self.token = token
    }

    /// The JSON object, on one line.
    public var json: String {
        let object = ["ServerURL": serverURL, "Username": Self.username, "Secret": token.value]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The server URL `get` and `erase` read: standard input without surrounding white space, as the protocol's `Get`
    /// has it (nil when empty).
    public static func serverURL(in input: String) -> String? {
        let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
