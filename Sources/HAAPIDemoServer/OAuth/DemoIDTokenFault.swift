/// A flaw the demo server puts into every ID token it issues, so that a client's validation can be shown to refuse it
/// (OpenID Connect Core 1.0 §3.1.3.7). Never set in a demo meant for people.
public enum DemoIDTokenFault: String, Sendable, CaseIterable {
    /// Signed by a key that is not in the JWKS, under the published key's `kid`.
    case wrongSignature
    /// Another `nonce` than the one of the authorize request.
    case wrongNonce
}
