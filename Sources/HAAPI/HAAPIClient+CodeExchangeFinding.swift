extension HAAPIClient {
    /// What this client knows about its server's code exchanges: ``CodeExchangeFinding/unknown`` until its first exchange
    /// (or ``assumeCodeExchangeFinding(_:)``), then whether the server issues token-bound authorization codes.
    ///
    /// A client learns it by trying: its first exchange goes without a DPoP proof (unless
    /// ``HAAPIClientConfiguration/bindTokensToDPoP``), and an `invalid_dpop_proof` answer makes it prove with the flow's
    /// key and retry once (Curity's `issue-token-bound-authorization-code`, [TOKENBIND], notes 5). Whether a server uses
    /// a code up when it refuses its exchange for a missing proof is not documented; against one that does, that first
    /// retry gets `invalid_grant`. A caller that keeps the finding (``onCodeExchangeFindingChange(_:)``) and gives it to
    /// its next client spares that client's first exchange.
    public var codeExchangeFinding: CodeExchangeFinding { context.codeExchangeProof.finding }

    /// Takes `finding` as known, as an earlier client of the same server and client id learned it: with
    /// ``CodeExchangeFinding/proofRequired`` every exchange is proved from the start. Neither logged nor told to the
    /// observer of ``onCodeExchangeFindingChange(_:)`` (the caller knows it already); an exchange that shows otherwise
    /// still changes it.
    /// - Parameter finding: What is known of this client's server and client id.
    public func assumeCodeExchangeFinding(_ finding: CodeExchangeFinding) {
        context.codeExchangeProof.assume(finding)
    }

    /// Sets what is called when an exchange of any of this client's flows changes ``codeExchangeFinding`` (the first
    /// finding, or a server that starts refusing exchanges without a proof); nil removes it. One observer per client: a
    /// second call replaces the first.
    ///
    /// The exchange that changed it waits for `observer` before it returns its outcome (after its retry, which is not
    /// delayed): keep it short, and let it fail quietly; what it does cannot change the outcome. Called at most once
    /// per change, even when several flows find it at once.
    /// - Parameter observer: Called with the new finding.
    public func onCodeExchangeFindingChange(_ observer: (@Sendable (CodeExchangeFinding) async -> Void)?) {
        context.codeExchangeProof.observe(observer)
    }
}
