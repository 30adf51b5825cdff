/// One device authorization request (RFC 8628 §3.1) as the verification page and the sign-in see it: who asked, the user
/// code and the scopes. Where it stands (waiting, signing in, decided) is the store's (``DeviceAuthorizationStore``); the
/// device code itself is never kept, only its SHA-256.
package struct DeviceAuthorization: Sendable, Equatable {
    /// A reference that names this authorization without being a secret (in outcomes as the starter's reference, and in
    /// log lines).
    package let reference: String
    /// The device client that asked.
    let client: DeviceClient
    /// The normalized user code.
    package let userCode: String
    /// The scopes the device asked for (RFC 8628 §3.1 `scope`), nil for the gateway's configured scopes.
    let scopes: [String]?

    package init(reference: String, client: DeviceClient, userCode: String, scopes: [String]?) {
        self.reference = reference
        self.client = client
        self.userCode = userCode
        self.scopes = scopes
    }
}
