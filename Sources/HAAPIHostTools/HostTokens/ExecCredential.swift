import Foundation

/// What `kube-credential` prints for kubectl and the other Kubernetes clients (client-go credential plugins'
/// `ExecCredential`): the token in `status.token` and, when known, its expiry in `status.expirationTimestamp` (RFC 3339,
/// UTC), until which the client uses it without running the plugin again.
public struct ExecCredential: Sendable, Equatable {
    /// The version asked for, echoed.
    public let version: ExecCredentialVersion
    /// The token and its expiry.
    public let token: CredentialHelperToken

    public init(version: ExecCredentialVersion, token: CredentialHelperToken) {
        self.version = version
        self.token = token
    }

    /// The JSON object, on one line.
    public var json: String {
        var status: [String: Any] = ["token": token.value]
        if let expiry = token.expiry {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            status["expirationTimestamp"] = formatter.string(from: Date(timeIntervalSince1970: expiry.timeIntervalSince1970.rounded(.down)))
        }
        let object: [String: Any] = ["apiVersion": version.rawValue, "kind": "ExecCredential", "status": status]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
