import Crypto
import Foundation
import HTTPTypes
import Logging
import Synchronization

/// Everything the demo server's handlers share: configuration, keys and the in-memory stores.
final class DemoServerContext: Sendable {
    let configuration: DemoServerConfiguration
    let logger: Logger
    let client: RegisteredClient
    let idTokenSigner: IDTokenSigner
    /// The demo client's `private_key_jwt` key pair (the private half is only written to a file).
    let clientAssertionKey: ImmutableKey<P256.Signing.PrivateKey>
    let tokens = TokenStore()
    let codes = AuthorizationCodeStore()
    let flows: FlowStore
    let outbox = DemoOutbox()
    /// The token responses issued, by grant type.
    let grants = DemoGrantCount()
    let passkeys = PasskeyStore()
    let webAuthn: WebAuthnVerifier
    /// Nil unless ``DemoServerConfiguration/requireDPoPNonce``.
    let nonces: DPoPNoncePolicy?
    let dpopVerifier: DPoPProofVerifier
    let assertionReplayCache = ReplayCache(capacity: 10_000, retention: 3700)
    private let baseURLStorage: Mutex<String>

    init(configuration: DemoServerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.client = RegisteredClient.demoGateway.with(secret: configuration.clientSecret)
        self.idTokenSigner = IDTokenSigner(algorithm: configuration.idTokenSigningAlgorithm)
        self.clientAssertionKey = ImmutableKey(P256.Signing.PrivateKey())
        self.flows = FlowStore(lifetime: configuration.flowLifetimeSeconds, capacity: configuration.maximumFlows)
        self.webAuthn = WebAuthnVerifier(configuration: configuration)
        let nonces: DPoPNoncePolicy? =
            switch (configuration.requireDPoPNonce, configuration.noncesPerKey) {
            case (false, _): nil
            case (true, false): .serverWide(DPoPNonceSource(lifetime: configuration.dpopNonceLifetimeSeconds))
            case (true, true):
                .perKey(PerKeyDPoPNonceSource(lifetime: configuration.dpopNonceLifetimeSeconds, capacity: configuration.maximumFlows))
            }
        self.nonces = nonces
        self.dpopVerifier = DPoPProofVerifier(
            replayCache: ReplayCache(capacity: 50_000, retention: 2 * configuration.dpopProofWindowSeconds + 5),
            nonces: nonces,
            iatWindow: configuration.dpopProofWindowSeconds
        )
        self.baseURLStorage = Mutex(
            Self.baseURL(configuration: configuration, boundPort: configuration.port)
        )
    }

    /// The URL the server is reachable at (its external URL, as Curity's `base-url`), without a trailing slash.
    var baseURL: String { baseURLStorage.withLock { $0 } }

    /// The issuer: the anonymous endpoint under the base URL, as Curity's (`https://<base-url>/oauth/v2/oauth-anonymous`,
    /// [OIDCMETA]); its metadata is at `<issuer>/.well-known/openid-configuration`.
    var issuer: String {
        guard let override = configuration.issuerOverride else { return url(DemoPaths.anonymous) }
        return override.hasPrefix("/") ? url(override) : override
    }

    /// Where the RFC 8414 metadata is served: the well-known prefix, then the issuer's path (RFC 8414 §3.1).
    var oauthMetadataPath: String {
        guard configuration.issuerOverride != nil, let path = URL(string: issuer)?.path else { return DemoPaths.oauthAuthorizationServerMetadata }
        return "/.well-known/oauth-authorization-server" + (path.hasSuffix("/") ? String(path.dropLast()) : path)
    }

    /// The `DPoP-Nonce` header for a response to a request whose proof was made with `keyThumbprint` (nil when no
    /// proof could be verified): empty unless nonces are required, and per key only when the key is known.
    func nonceHeaders(for keyThumbprint: String?) -> HTTPFields {
        var fields: HTTPFields = [:]
        if let nonce = nonces?.current(for: keyThumbprint) { fields[.dpopNonce] = nonce }
        return fields
    }

    /// Absolute URL of a path on this server.
    func url(_ path: String) -> String { baseURL + path }

    /// The URL a DPoP proof for a request to `path` must name (`htu`): on ``DemoServerConfiguration/proofBaseURL`` when
    /// set, else on the base URL.
    func proofURL(_ path: String) -> String {
        guard let base = configuration.proofBaseURL else { return url(path) }
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
    }

    /// Called once the listening port is known.
    func serverDidBind(port: Int) {
        baseURLStorage.withLock { $0 = Self.baseURL(configuration: configuration, boundPort: port) }
    }

    /// The password a demo user signs in with (``DemoServerConfiguration/passwords`` or the shipped one).
    func password(of user: DemoUser) -> String {
        configuration.passwords[user.username] ?? user.password
    }

    /// Client authentication for the token, revocation and introspection endpoints.
    var clientAuthenticator: ClientAuthenticator {
        ClientAuthenticator(
            client: client,
            assertionKey: ImmutableKey(clientAssertionKey.value.publicKey),
            assertionReplayCache: assertionReplayCache,
            audiences: [issuer, url(DemoPaths.token)]
        )
    }

    private static func baseURL(configuration: DemoServerConfiguration, boundPort: Int) -> String {
        if let publicBaseURL = configuration.publicBaseURL {
            return publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL
        }
        var host = configuration.host
        if host == "0.0.0.0" || host == "::" || host.isEmpty { host = "127.0.0.1" }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        return "http://\(host):\(boundPort)"
    }
}
