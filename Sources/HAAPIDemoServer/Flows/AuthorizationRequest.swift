/// The validated parameters of the authorize request that started a flow.
struct AuthorizationRequest: Sendable {
    let clientID: String
    let redirectURI: String
    let scopes: [String]
    let state: String?
    let codeChallenge: String
    let nonce: String?
    /// `dpop_jkt`: the thumbprint of the key the code is bound to (RFC 9449 §10), when the request carried one.
    let dpopJKT: String?
}
