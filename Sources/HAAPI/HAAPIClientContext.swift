import Crypto
import Foundation
import Logging

/// What a client shares with its flows and token manager (immutable; the nonce store is thread-safe). A class, so that
/// each of a server's many flows holds a reference rather than its own copy of the configuration.
final class HAAPIClientContext: Sendable {
    let configuration: HAAPIClientConfiguration
    let endpoints: HAAPIEndpoints
    let transport: any HAAPITransport
    let nonceStore: DPoPNonceStore
    let originGuard: OriginGuard
    let logger: Logger
    /// The client authentication in effect and its assertion signer (replaceable while running).
    let credentials: ClientCredentials
    /// Steps the flows decoded, shared between them (``HAAPIClientConfiguration/sharedStepCacheSize``).
    let stepCache: SharedStepCache
    /// Whether the server wants code exchanges proved with the flow's key (token-bound codes), as far as known.
    let codeExchangeProof = CodeExchangeProof()
    /// Validates the flows' ID tokens with the upstream's JWK Set (shared, so the set is fetched once); nil when the
    /// endpoints name no issuer or no `jwks_uri`.
    let idTokenValidator: IDTokenValidator?
    /// The configuration's authorize parameters, one copy that every flow asking for them refers to.
    let authorizationParameters: Boxed<AuthorizationParameters>

    /// A step from the JSON text a saved state holds (``Representation/jsonText``), through the shared step cache: the
    /// flows and sign-ins saved at the same step decode it once.
    /// - Throws: ``HAAPIError`` when it is not a step's JSON.
    func decodeStep(jsonText: String) throws(HAAPIError) -> Representation {
        let decoded = try stepCache.decode(
            status: 200,
            contentType: "application/vnd.auth+json",
            body: Data(jsonText.utf8),
            keepingRawJSON: configuration.keepsRawJSON
        )
        guard case .representation(let representation) = decoded else { throw HAAPIError(.invalidFlowState, "not a step") }
        return representation
    }

    init(
        configuration: HAAPIClientConfiguration,
        endpoints: HAAPIEndpoints,
        transport: any HAAPITransport,
        nonceStore: DPoPNonceStore,
        originGuard: OriginGuard,
        logger: Logger,
        credentials: ClientCredentials
    ) {
        self.configuration = configuration
        self.authorizationParameters = Boxed(configuration.authorizationParameters)
        self.endpoints = endpoints
        self.transport = transport
        self.nonceStore = nonceStore
        self.originGuard = originGuard
        self.logger = logger
        self.credentials = credentials
        self.stepCache = SharedStepCache(capacity: configuration.sharedStepCacheSize)
        if let issuer = endpoints.issuer, let keySet = endpoints.keySet {
            self.idTokenValidator = IDTokenValidator(issuer: issuer, clientID: configuration.clientID, keySetURL: keySet, logger: logger) {
                (request: HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData in
                try await Self.send(request, transport: transport, endpoints: endpoints, configuration: configuration, logger: logger)
            }
        } else {
            self.idTokenValidator = nil
        }
    }

    /// Sends one request with the configured timeout (or less, within a ``HAAPIDeadline``) and body cap and maps every
    /// failure to ``HAAPIError``.
    func send(_ request: HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData {
        try await Self.send(request, transport: transport, endpoints: endpoints, configuration: configuration, logger: logger)
    }

    private static func send(
        _ request: HTTPRequestData,
        transport: any HAAPITransport,
        endpoints: HAAPIEndpoints,
        configuration: HAAPIClientConfiguration,
        logger: Logger
    ) async throws(HAAPIError) -> HTTPResponseData {
        logger.trace("HAAPI HTTP request", metadata: ["method": "\(request.method)", "path": "\(request.url.path)"])
        guard let timeout = HAAPIDeadline.remaining(of: configuration.requestTimeout) else {
            throw HAAPIError(.timeout, "the time for the whole request was used up before \(request.method) \(request.url.path)")
        }
        let response: HTTPResponseData
        do {
            response = try await UpstreamCallSpan.around(request, endpoints: endpoints) { traced in
                try await transport.send(traced, timeout: timeout, maxBodyBytes: configuration.maxResponseBodyBytes)
            }
        } catch {
            logger.debug("HAAPI HTTP request failed", metadata: ["code": "\(error.code)", "path": "\(request.url.path)"])
            throw error
        }
        logger.trace("HAAPI HTTP response", metadata: ["status": .stringConvertible(response.status), "path": "\(request.url.path)"])
        return response
    }
}
