/// A HAAPI request whose token and DPoP proof were accepted.
struct HAAPICaller: Sendable {
    let token: IssuedToken
    /// The proof key's thumbprint, equal to the token's `cnf.jkt`.
    let keyThumbprint: String
}
