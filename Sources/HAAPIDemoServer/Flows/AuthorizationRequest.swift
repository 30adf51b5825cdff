/// The validated parameters of the authorize request that started a flow.
struct AuthorizationRequest: Sendable {
    let clientID: String
    let redirectURI: String
    let scopes: [String]
    let state: String?
    let codeChallenge: String
    let nonce: String?
}
