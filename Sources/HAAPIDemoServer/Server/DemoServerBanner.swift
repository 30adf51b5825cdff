import Foundation

/// What `haapi-gateway demo-server` prints once it listens: the issuer and its metadata, the client, the users and the
/// outbox, and in strict mode what strict means here.
public enum DemoServerBanner {
    /// The banner for a demo server listening at `url`.
    /// - Parameters:
    ///   - configuration: The server's configuration.
    ///   - strict: Whether `--strict` was given.
    ///   - gatewaySetting: The gateway's setting that takes the issuer (`upstream.baseURL`).
    public static func text(url: URL, configuration: DemoServerConfiguration, strict: Bool, gatewaySetting: String) -> String {
        let base = url.absoluteString
        let issuer = "\(base)/oauth/v2/oauth-anonymous"
        return """
            Demo HAAPI server: issuer \(issuer) (the gateway's \(gatewaySetting), --upstream), its metadata at \(issuer)/.well-known/openid-configuration
            Client \(DemoServer.clientID) / \(DemoServer.clientSecret), redirect URI \(DemoServer.redirectURI)
            Users demo/demo, otp/otp, poll/poll, consent/consent, sms/sms, locked/locked (each can also create a passkey); outbox at \(base)/demo/outbox
            \(strict ? strictNote(configuration) : "")
            """
    }

    /// What strict mode turned on, as one line and its end.
    static func strictNote(_ configuration: DemoServerConfiguration) -> String {
        let consumed = configuration.consumesCodesOnRefusedProof ? " (used up by an exchange refused for a missing proof)" : ""
        return
            "Strict mode: per-key DPoP nonces, token-bound authorization codes\(consumed), authorization-code-dpop-binding \(configuration.authorizationCodeDPoPBinding.rawValue), token-dpop-binding \(configuration.tokenDPoPBinding.rawValue), stickiness cookie demo-node\n"
    }
}
