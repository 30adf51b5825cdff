/// What a client knows about its server's code exchanges: whether the server binds codes and tokens to the flow's DPoP key
/// (Curity's per-client `issue-token-bound-authorization-code`: the exchange must carry a DPoP proof made with the flow's
/// key, else `invalid_dpop_proof` [TOKENBIND], [TBIND], notes 5; since Curity 11.4 also `token-dpop-binding` = `required`,
/// which refuses a token request without a proof, and `authorization-code-dpop-binding` = `required`, which refuses an
/// authorize request without `dpop_jkt` [DPOP114], [DPOPEPH]).
///
/// A client starts ``unknown`` and learns it at its first exchange (``HAAPIClient/codeExchangeFinding``). A caller that
/// kept what an earlier client learned gives it to the new one with ``HAAPIClient/assumeCodeExchangeFinding(_:)``, and
/// hears what a client learns with ``HAAPIClient/onCodeExchangeFindingChange(_:)``. Nothing secret is in it.
public enum CodeExchangeFinding: String, Sendable, Hashable, Codable, CaseIterable {
    /// Not known yet: the next exchange goes without a proof (unless ``HAAPIClientConfiguration/bindTokensToDPoP``), and
    /// an `invalid_dpop_proof` answer makes the client prove and retry once.
    case unknown
    /// The server refused an exchange without a proof, or an authorize request without `dpop_jkt`: every authorize request
    /// carries `dpop_jkt`, every exchange is proved with the flow's key from the start, and the tokens are DPoP-bound.
    case proofRequired
    /// The server exchanged a code without a proof: exchanges go without one (an `invalid_dpop_proof` answer still makes
    /// the client prove and retry once, and changes the finding to ``proofRequired``).
    case proofNotRequired
}
