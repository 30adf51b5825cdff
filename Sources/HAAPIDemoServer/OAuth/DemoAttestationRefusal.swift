/// The OAuth error a HAAPI token request is refused with when the client may not go without attestation
/// (``DemoServerConfiguration/haapiAllowedWithoutAttestation`` false). Curity does not document which error it sends
/// then (notes 5): attestation stands in for client authentication, so either is plausible.
public enum DemoAttestationRefusal: String, Sendable, CaseIterable {
    /// HTTP 400 `unauthorized_client` (RFC 6749 §5.2: the client may not use this grant). The default.
    case unauthorizedClient = "unauthorized_client"
    /// HTTP 401 `invalid_client` (RFC 6749 §5.2: client authentication failed), as a server that counts the missing
    /// attestation as failed client authentication.
    case invalidClient = "invalid_client"
}
