import AsyncHTTPClient
import Crypto
import Foundation
import Logging

/// The entry point of the library: validated configuration, resolved endpoints, a transport,
/// a ``TokenManager``, and a factory of login flows.
///
/// ```swift
/// let client = try await HAAPIClient(configuration: configuration, logger: logger)
/// let flow = client.makeFlow()
/// let first = try await flow.start(acceptLanguage: "en")
/// ```
public final class HAAPIClient: Sendable {
    /// The configuration in use.
    public let configuration: HAAPIClientConfiguration
    /// The endpoints in use (configured or discovered).
    public let endpoints: HAAPIEndpoints
    /// Exchanges, refreshes and revokes final tokens.
    public let tokenManager: TokenManager
    let context: HAAPIClientContext

    /// Validates the configuration, sets up the transport and runs discovery when no endpoints are given.
    /// - Parameters:
    ///   - configuration: The configuration.
    ///   - transport: The transport; by default an ``AsyncHTTPClientTransport`` owned by this client.
    ///   - logger: Receives debug and trace output only; never secrets.
    /// - Throws: ``HAAPIError/Code/invalidConfiguration`` listing every problem, or the discovery failure.
    public init(
        configuration: HAAPIClientConfiguration,
        transport: (any HAAPITransport)? = nil,
        logger: Logger = Logger(label: "haapi")
    ) async throws(HAAPIError) {
        try configuration.validate()
        let credentials = try ClientCredentials(configuration.clientAuthentication)
        var resolvedTransport: any HAAPITransport
        if let transport {
            resolvedTransport = transport
        } else {
            resolvedTransport = try AsyncHTTPClientTransport(configuration: configuration, logger: logger)
        }
        if let internalURL = configuration.internalURL {
            resolvedTransport = InternalRouteTransport(base: resolvedTransport, externalURL: configuration.baseURL, internalURL: internalURL)
        }
        let nonceStore = DPoPNonceStore()
        let originGuard = OriginGuard(baseURL: configuration.baseURL)
        let endpoints: HAAPIEndpoints
        if let configured = configuration.endpoints {
            endpoints = configured
        } else {
            let discoveryURL = OpenIDDiscovery.documentURL(issuer: configuration.baseURL, discoveryPath: configuration.discoveryPath)
            let bootstrap = HAAPIClientContext(
                configuration: configuration,
                // Only the discovery document is fetched through it: it is the metadata (as the call's span names it).
                endpoints: HAAPIEndpoints(authorization: discoveryURL, token: discoveryURL, metadataDocument: discoveryURL),
                transport: resolvedTransport,
                nonceStore: nonceStore,
                originGuard: originGuard,
                logger: logger,
                credentials: credentials
            )
            do throws(HAAPIError) {
                endpoints = try await OpenIDDiscovery.discover(issuer: configuration.baseURL, discoveryPath: configuration.discoveryPath) {
                    (request: HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData in
                    try await bootstrap.send(request)
                }
            } catch {
                try? await resolvedTransport.shutdown()
                throw error
            }
            if configuration.internalURL != nil, let outside = endpoints.named.first(where: { OriginGuard.origin(of: $0.url) != originGuard.origin })
            {
                try? await resolvedTransport.shutdown()
                throw HAAPIError(
                    .invalidConfiguration,
                    "the discovery document names a \(outside.name) endpoint on \(OriginGuard.origin(of: outside.url)), but with an internal URL only the base URL's origin \(originGuard.origin) is reached"
                )
            }
            logger.debug("HAAPI endpoints discovered")
        }
        self.configuration = configuration
        self.endpoints = endpoints
        self.context = HAAPIClientContext(
            configuration: configuration,
            endpoints: endpoints,
            transport: resolvedTransport,
            nonceStore: nonceStore,
            originGuard: originGuard,
            logger: logger,
            credentials: credentials
        )
        self.tokenManager = TokenManager(endpointClient: TokenEndpointClient(context: context))
    }

    /// Uses an `HTTPClient` owned by the caller (its TLS settings apply; it should not follow redirects).
    /// ``shutdown()`` leaves that client running.
    /// - Parameters:
    ///   - configuration: The configuration.
    ///   - httpClient: The caller's client.
    ///   - logger: Receives debug and trace output only.
    public convenience init(
        configuration: HAAPIClientConfiguration,
        httpClient: HTTPClient,
        logger: Logger = Logger(label: "haapi")
    ) async throws(HAAPIError) {
        try await self.init(configuration: configuration, transport: AsyncHTTPClientTransport(httpClient: httpClient, logger: logger), logger: logger)
    }

    /// Validates ID tokens against the upstream's JWK Set (one per client, sharing the fetched keys); nil when the
    /// endpoints name no issuer or no `jwks_uri`. ``HAAPIFlow/validateIDToken(of:now:)`` uses it with the flow's nonce.
    public var idTokenValidator: IDTokenValidator? { context.idTokenValidator }

    /// Creates a new login flow with its own DPoP key, HAAPI token, PKCE pair, state and session.
    /// - Parameters:
    ///   - scopes: The scopes this one flow asks for, when not the configuration's (a device asking for fewer).
    ///   - parameters: The extra authorize parameters of this one flow, when not the configuration's (a signed start link's
    ///     `login_hint`). Reserved names are not checked here: give only the typed members and vetted `additional` ones.
    public func makeFlow(scopes: [String]? = nil, parameters: AuthorizationParameters? = nil) -> HAAPIFlow {
        HAAPIFlow(context: context, scopes: scopes, parameters: parameters)
    }

    /// Makes a flow again from a state that ``HAAPIFlow/exportState()`` saved, in this process or another one, with a
    /// client of the same configuration (client id and upstream; the state's own scopes and parameters are kept). The
    /// flow continues where the saved one was: same DPoP key, HAAPI token (until it expires), session, cookies, nonces,
    /// PKCE verifier, `state` and current step.
    ///
    /// The saved step goes through this client's shared step cache, so restored flows at the same step share one copy.
    /// - Parameter state: A saved state. A secret (see ``HAAPIFlowState``).
    /// - Returns: The restored flow.
    /// - Throws: ``HAAPIError/Code/invalidFlowState`` for a state of an unknown ``HAAPIFlowState/formatVersion``, of
    ///   another client id or upstream origin, or whose DPoP key, step or last submitted action does not load.
    public func restoreFlow(_ state: HAAPIFlowState) throws(HAAPIError) -> HAAPIFlow {
        try HAAPIFlow.restore(state, context: context, currentStep: nil)
    }

    /// ``restoreFlow(_:)`` of a state exported by ``HAAPIFlow/exportState(leavingOut:)`` with its current step left out:
    /// `currentStep` is that step, as the caller kept it (a state that holds its step keeps its own).
    /// - Throws: As ``restoreFlow(_:)``.
    public func restoreFlow(_ state: HAAPIFlowState, currentStep: Representation?) throws(HAAPIError) -> HAAPIFlow {
        try HAAPIFlow.restore(state, context: context, currentStep: currentStep)
    }

    /// A step from its JSON text (``Representation/jsonText``, or a saved flow's ``HAAPIFlowState/currentStep``), decoded
    /// through this client's shared step cache (``HAAPIClientConfiguration/sharedStepCacheSize``), so that what is saved
    /// at the same step is decoded once, with the client's ``HAAPIClientConfiguration/keepsRawJSON``.
    /// - Throws: ``HAAPIError`` when the text is not a step's JSON.
    public func decodeStep(jsonText: String) throws(HAAPIError) -> Representation {
        try context.decodeStep(jsonText: jsonText)
    }

    /// Puts a new secret or key of the client authentication in use into effect for every later token, HAAPI-token and
    /// revocation request, flows under way included (a secret rotated on disk). ``configuration`` keeps the one the
    /// client was made with.
    /// - Throws: ``HAAPIError/Code/invalidConfiguration`` for another method or mutual TLS (they need a new client), or
    ///   when the new key does not load.
    public func replaceClientAuthentication(_ authentication: ClientAuthentication) throws(HAAPIError) {
        try context.credentials.replace(with: authentication)
    }

    /// Shuts the transport down (a client passed in by the caller is left running).
    public func shutdown() async throws {
        try await context.transport.shutdown()
    }

    /// The base URL as a directory, so relative paths resolve below it.
    static func directoryURL(_ url: URL) -> URL {
        url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/") ?? url
    }
}
