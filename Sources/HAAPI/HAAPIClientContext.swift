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
    let assertionKeyBox: SigningKeyBox?
    /// Steps the flows decoded, shared between them (``HAAPIClientConfiguration/sharedStepCacheSize``).
    let stepCache: SharedStepCache
    var assertionKey: P256.Signing.PrivateKey? { assertionKeyBox?.key }

    init(
        configuration: HAAPIClientConfiguration, endpoints: HAAPIEndpoints, transport: any HAAPITransport, nonceStore: DPoPNonceStore,
        originGuard: OriginGuard, logger: Logger, assertionKeyBox: SigningKeyBox?
    ) {
        self.configuration = configuration
        self.endpoints = endpoints
        self.transport = transport
        self.nonceStore = nonceStore
        self.originGuard = originGuard
        self.logger = logger
        self.assertionKeyBox = assertionKeyBox
        self.stepCache = SharedStepCache(capacity: configuration.sharedStepCacheSize)
    }

    /// Sends one request with the configured timeout and body cap, maps every failure to ``HAAPIError``,
    /// and remembers any `DPoP-Nonce` of the answer.
    func send(_ request: HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData {
        logger.trace("HAAPI HTTP request", metadata: ["method": "\(request.method)", "path": "\(request.url.path)"])
        let response: HTTPResponseData
        do {
            response = try await transport.send(request, timeout: configuration.requestTimeout, maxBodyBytes: configuration.maxResponseBodyBytes)
        } catch let error as HAAPIError {
            logger.debug("HAAPI HTTP request failed", metadata: ["code": "\(error.code)", "path": "\(request.url.path)"])
            throw error
        } catch {
            throw AsyncHTTPClientTransport.map(error, phase: "sending the request")
        }
        if let nonce = response.header("DPoP-Nonce"), !nonce.isEmpty {
            nonceStore.update(nonce, for: request.url)
        }
        logger.trace("HAAPI HTTP response", metadata: ["status": "\(response.status)", "path": "\(request.url.path)"])
        return response
    }
}
