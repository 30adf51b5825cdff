/// The values of Curity 11.4's DPoP binding settings, `authorization-code-dpop-binding` and `token-dpop-binding`
/// ([DPOP114], [DPOPEPH]), as the demo answers them.
public enum DemoDPoPBinding: String, Sendable, CaseIterable {
    /// The binding is demanded: an authorize request without `dpop_jkt`, or a token request without a valid DPoP proof,
    /// is refused.
    case required
    /// The binding is made when the client asks for it: a code is bound when the authorize request carries `dpop_jkt`,
    /// tokens when the token request carries a proof.
    case clientRequested = "client-requested"
}
