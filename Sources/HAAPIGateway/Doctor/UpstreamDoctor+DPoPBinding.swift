import HAAPI

extension UpstreamDoctor {
    /// What the first flow's authorize request showed of Curity 11.4's `authorization-code-dpop-binding`: refused without
    /// `dpop_jkt` and accepted with it, the client's codes must be bound to a DPoP key. The gateway copes (it sends
    /// `dpop_jkt` again at once and remembers it), but its tokens are then DPoP-bound, which is worth saying before a
    /// callback or a device meets them.
    func codeBinding(_ flow: HAAPIFlow) async -> DoctorCheck? {
        guard await flow.authorizeNeededDPoPJKT else { return nil }
        let bindTokens = ConfigurationKey.upstreamBindTokensToDPoP.path
        return .note(
            "dpop-bound-codes",
            "the server refused the authorize request without dpop_jkt (invalid_request) and accepted it with one: \(CuritySetting.authorizationCodeDPoPBinding(configuration.clientID)) is \(CurityNames.dpopRequired) (Curity 11.4 and later). The gateway learns it at its first sign-in: from then on every authorize request carries dpop_jkt and every code exchange is proved with the flow's DPoP key, so the tokens are DPoP-bound.",
            fix:
                "set \(bindTokens): true to say so from the start (each sign-in's outcome then carries dpopPrivateKey, and \(ConfigurationKey.devicesClients.path) get the tokens only with receivesDPoPKey: true); or, for bearer tokens, set the setting to \(CurityNames.dpopClientRequested) (with \(CuritySetting.tokenDPoPBinding(configuration.clientID)) not \(CurityNames.dpopRequired))."
        )
    }
}
