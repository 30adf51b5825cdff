import Foundation

/// Everything a ``HAAPIClient`` needs. Plain values; ``validate()`` reports every problem at once.
///
/// ``description``, ``debugDescription`` and `dump` redact secrets and keys.
public struct HAAPIClientConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The HAAPI server's issuer, as it publishes it: for Curity its anonymous endpoint
    /// (`https://<base-url>/oauth/v2/oauth-anonymous`, [OIDCMETA]), whose metadata is at
    /// `<issuer>/.well-known/openid-configuration`. Discovery must name exactly this issuer (OpenID Connect Discovery 1.0
    /// §4.3). Its origin is the server's **external** origin: the only one hrefs may point to, and the one every DPoP
    /// `htu` names (Curity's DPoP documentation says a proof's method and URL must match the request, [DPOPNONCE]; its own
    /// server-side client names the external URL, [SRVCLIENT], notes 5).
    public var baseURL: URL
    /// Explicit endpoints; `nil` runs OpenID discovery at `baseURL/.well-known/openid-configuration`.
    public var endpoints: HAAPIEndpoints?
    /// Where the client connects for every request to ``baseURL``'s origin, when that is not the way to reach the server
    /// from here (a cluster-internal service, a sidecar): `scheme://host[:port]` with no path. Requests keep the external
    /// URL in everything the server checks (DPoP `htu`, `iss`, the hrefs accepted) and in their `Host` header; only the
    /// connection goes to this URL (TLS then checks this host's certificate). Requests for any other origin are refused.
    /// Nil: the client connects to ``baseURL`` itself.
    public var internalURL: URL?
    /// The path of the discovery document relative to ``baseURL``.
    public var discoveryPath: String
    /// The OAuth client id of the HAAPI client.
    public var clientID: String
    /// How the client authenticates at the token endpoint.
    public var clientAuthentication: ClientAuthentication
    /// Extra trust roots (PEM, one or more certificates each) for the upstream's TLS.
    public var additionalTrustRootsPEM: [String]
    /// The registered redirect URI sent in the authorize and token requests.
    public var redirectURI: String
    /// The scopes of the final tokens.
    public var scopes: [String]
    /// Extra authorize parameters.
    public var authorizationParameters: AuthorizationParameters
    /// The TCP/TLS connect timeout.
    public var connectTimeout: Duration
    /// The limit for one whole HTTP exchange (headers and body).
    public var requestTimeout: Duration
    /// A HAAPI token is replaced when it has less than this left to live.
    public var haapiTokenRefreshMargin: Duration
    /// Whether the code exchange binds the final tokens to the flow's DPoP key (the key is then returned with them).
    public var bindTokensToDPoP: Bool
    /// The largest accepted response body in bytes.
    public var maxResponseBodyBytes: Int
    /// The most automatic steps ``HAAPIFlow/followAutomaticSteps(from:acceptLanguage:)`` takes in a row.
    public var maxAutomaticSteps: Int
    /// Whether decoded steps keep their JSON (`raw` of steps, actions, fields and links). A server holding many flows
    /// turns it off: a step then holds much less memory (the demo's first step about 5 KiB less), only its typed members.
    public var keepsRawJSON = true
    /// The most connections kept open to the upstream at once (AsyncHTTPClient's per-host limit, 8 by default). A
    /// request waiting for one counts against ``connectTimeout``, so a server with many concurrent flows raises it.
    public var maximumConnections = 8
    /// How many decoded steps the client's flows share (0: none). A step whose response is byte for byte one decoded
    /// before is reused instead of decoded again, so a server holding many flows at the same step keeps one copy of it
    /// and skips the decoding. When this many are kept, the oldest not reused lately makes room for a new one; problems
    /// and authorization responses are never kept.
    public var sharedStepCacheSize = 0

    /// Creates a configuration.
    /// - Parameters:
    ///   - baseURL: The HAAPI server's base URL.
    ///   - endpoints: Explicit endpoints, or `nil` for discovery.
    ///   - discoveryPath: The discovery document path.
    ///   - clientID: The client id.
    ///   - clientAuthentication: The client authentication.
    ///   - additionalTrustRootsPEM: Extra trust roots.
    ///   - redirectURI: The redirect URI.
    ///   - scopes: The scopes.
    ///   - authorizationParameters: Extra authorize parameters.
    ///   - connectTimeout: The connect timeout (default 5 s).
    ///   - requestTimeout: The per-exchange timeout (default 15 s).
    ///   - haapiTokenRefreshMargin: The HAAPI token refresh margin (default 30 s).
    ///   - bindTokensToDPoP: Whether final tokens are DPoP-bound (default false).
    ///   - maxResponseBodyBytes: The body size cap (default 1 MiB).
    ///   - maxAutomaticSteps: The automatic-step bound (default 10).
    public init(
        baseURL: URL,
        endpoints: HAAPIEndpoints? = nil,
        discoveryPath: String = ".well-known/openid-configuration",
        clientID: String,
        clientAuthentication: ClientAuthentication,
        additionalTrustRootsPEM: [String] = [],
        redirectURI: String,
        scopes: [String],
        authorizationParameters: AuthorizationParameters = AuthorizationParameters(),
        connectTimeout: Duration = .seconds(5),
        requestTimeout: Duration = .seconds(15),
        haapiTokenRefreshMargin: Duration = .seconds(30),
        bindTokensToDPoP: Bool = false,
        maxResponseBodyBytes: Int = 1 << 20,
        maxAutomaticSteps: Int = 10
    ) {
        self.baseURL = baseURL
        self.endpoints = endpoints
        self.discoveryPath = discoveryPath
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.additionalTrustRootsPEM = additionalTrustRootsPEM
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.authorizationParameters = authorizationParameters
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.haapiTokenRefreshMargin = haapiTokenRefreshMargin
        self.bindTokensToDPoP = bindTokensToDPoP
        self.maxResponseBodyBytes = maxResponseBodyBytes
        self.maxAutomaticSteps = maxAutomaticSteps
    }

    /// Where discovery reads the server's metadata: ``discoveryPath`` under ``baseURL``, the issuer.
    public var discoveryDocumentURL: URL { OpenIDDiscovery.documentURL(issuer: baseURL, discoveryPath: discoveryPath) }

    /// Where discovery looks when there is no document at ``discoveryDocumentURL``: the RFC 8414 §3.1 place of
    /// ``baseURL``'s metadata (`https://host/.well-known/oauth-authorization-server/<issuer path>`).
    public var oauthMetadataURL: URL? { OpenIDDiscovery.oauthMetadataURL(issuer: baseURL) }

    /// The configuration with secrets and keys redacted.
    public var description: String {
        let named = endpoints.map { $0.named.map { "\($0.name) \($0.url.absoluteString)" }.joined(separator: ", ") }
        let endpointsDescription = endpoints.map { "explicit (issuer \($0.issuer ?? "none"), \(named ?? ""))" } ?? "discovery"
        let internalPart = internalURL.map { ", internalURL: \($0.absoluteString)" } ?? ""
        return
            "HAAPIClientConfiguration(baseURL: \(baseURL.absoluteString), clientID: \(clientID), clientAuthentication: \(clientAuthentication), redirectURI: \(redirectURI), scopes: \(scopes.joined(separator: " ")), endpoints: \(endpointsDescription), bindTokensToDPoP: \(bindTokensToDPoP)\(internalPart))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// No members, so that `dump` shows ``description`` alone and no secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
