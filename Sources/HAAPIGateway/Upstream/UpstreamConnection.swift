import HAAPI
import Logging
import ServiceLifecycle
import Synchronization

/// The gateway's HAAPI client, once the upstream has answered: its discovery document read and a first HAAPI token
/// obtained. An upstream that is down, unreachable or slow at start does not stop the gateway: it starts without it,
/// says so (``status``, `/readyz`, a "sign-in is unavailable" page), and keeps trying with backoff in the background
/// (as a service of the application) until it answers, as it does after a 5xx, a 429, a proxy's page or a discovery
/// document that is not there yet (``isTemporary(_:)``). Only the server's own answer that the configuration is wrong
/// (no HAAPI for the client, a refused client secret, another issuer) stops startup at once, as a configuration error.
public final class UpstreamConnection: Service, Sendable {
    /// What the connection is doing, for readiness and logs.
    public enum Status: Sendable, Equatable {
        /// Not connected yet; the last attempt's failure, named (connection refused, name resolution, TLS, timeout, …).
        case connecting(lastFailure: String?)
        /// Connected: the client is in use.
        case ready
        /// The upstream answered, but not as a HAAPI server for this client: it will not work without a change.
        case misconfigured(String)
    }

    private let configured: Mutex<HAAPIClientConfiguration>
    let logger: Logger
    /// The waits between attempts, the last one repeated.
    let backoff: [Duration]
    private let state = Mutex<(client: HAAPIClient?, status: Status)>((nil, .connecting(lastFailure: nil)))
    /// Keeps what the client learns about the upstream past this process; nil: in memory only.
    let facts: UpstreamFactKeeper?

    /// - Parameters:
    ///   - configuration: The HAAPI client's configuration.
    ///   - backoff: The waits between attempts (the last one repeated).
    ///   - facts: Where what the client learns about the upstream is kept (read when connected, written on a change).
    init(
        configuration: HAAPIClientConfiguration,
        logger: Logger,
        backoff: [Duration] = [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(15)],
        facts: UpstreamFactKeeper? = nil
    ) {
        self.configured = Mutex(configuration)
        self.logger = logger
        self.backoff = backoff
        self.facts = facts
    }

    /// The client's configuration (with the client authentication in effect).
    var configuration: HAAPIClientConfiguration { configured.withLock { $0 } }

    /// Puts a new secret or key of the client authentication in use into effect (SIGHUP after a secret file changed):
    /// for the client when connected, else for the next attempt.
    /// - Throws: ``HAAPIError`` for another method or a key that does not load (the running one stays).
    func replaceClientAuthentication(_ authentication: ClientAuthentication) throws(HAAPIError) {
        try client?.replaceClientAuthentication(authentication)
        configured.withLock { $0.clientAuthentication = authentication }
    }

    /// The client, nil until the upstream has answered.
    public var client: HAAPIClient? { state.withLock { $0.client } }

    /// What the connection is doing.
    public var status: Status { state.withLock { $0.status } }

    /// The upstream, as named in logs and readiness (its base URL, which holds no secret).
    public var upstreamName: String { configuration.baseURL.absoluteString }

    /// One attempt to connect: discovery, then a HAAPI token with the client's credentials.
    /// - Throws: ``ConfigurationError`` when the upstream answered but is wrong for this client.
    func attempt() async throws(ConfigurationError) {
        let outcome: Result<HAAPIClient, HAAPIError>
        do throws(HAAPIError) {
            let client = try await HAAPIClient(configuration: configuration, logger: logger)
            do throws(HAAPIError) {
                try await client.verifyHAAPIAccess()
            } catch {
                try? await client.shutdown()
                throw error
            }
            outcome = .success(client)
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let client):
            // What an earlier process learned, before any sign-in can use the client.
            await facts?.adopt(client)
            state.withLock { $0 = (client, .ready) }
            logger.notice("upstream connected", metadata: ["upstream": "\(upstreamName)"])
            warnOfUnvalidatableAlgorithms(client)
        case .failure(let error) where Self.isTemporary(error):
            state.withLock { $0.status = .connecting(lastFailure: "\(error.code): \(error.message)") }
            logger.warning(
                "upstream not reachable; retrying",
                metadata: ["upstream": "\(upstreamName)", "error": "\(error.code)", "reason": .untrusted(error.message)]
            )
        case .failure(let error):
            let message =
                [.noDiscoveryDocument, .issuerMismatch].contains(error.code)
                ? "\(ConfigurationKey.upstreamBaseURL.path) must be the issuer, under which the server publishes its metadata (OpenID Connect Discovery 1.0 §4): \(error.message)"
                : "the upstream \(upstreamName) answered, but not as a HAAPI server for this client: \(error.message)"
            state.withLock { $0.status = .misconfigured(message) }
            logger.error(
                "upstream misconfigured",
                metadata: ["upstream": "\(upstreamName)", "error": "\(error.code)", "reason": .untrusted(error.message)]
            )
            // `doctor` takes the operator from here: it asks the upstream step by step and names the setting to change.
            throw ConfigurationError(
                problems: ["upstream: \(message) (haapi-gateway doctor checks the upstream step by step and names what to change)"]
            )
        }
    }

    /// Names the ID-token algorithms the upstream's discovery lists that the gateway cannot validate: a token signed with
    /// one ends its sign-in with `invalid_id_token`, so an operator hears of it before anyone signs in ([EDDSA]: Curity
    /// signs with the token profile's key, RSA, EC or EdDSA).
    func warnOfUnvalidatableAlgorithms(_ client: HAAPIClient) {
        guard client.configuration.scopes.contains("openid") else { return }
        let unvalidatable = JWSAlgorithm.unvalidatable(client.endpoints.idTokenSigningAlgorithms)
        guard !unvalidatable.isEmpty else { return }
        logger.warning(
            "the upstream names ID-token signing algorithms the gateway cannot validate; a sign-in whose ID token is signed with one of them ends with invalid_id_token: sign with an RSA, EC or Ed25519 key (Curity: token-issuers/default-token-issuer/jwt-issuer-settings)",
            metadata: ["upstream": "\(upstreamName)", "algorithms": "\(unvalidatable.joined(separator: ", "))"]
        )
    }

    /// Whether `error` may go away by itself (an outage, retried, `/readyz` saying what was found) rather than being the
    /// server's own answer that the configuration is wrong (which stops startup):
    /// - no connection, a time-out, a 5xx, or a 429 (Too Many Requests): outages;
    /// - a 4xx that is not the server's OAuth answer, or a body that is not JSON: a proxy's or load balancer's page, such
    ///   as a route that is not there yet during a rollout: an outage;
    /// - no discovery document where the issuer says: an outage (a proxy not routing yet, or metadata not exposed yet;
    ///   the gateway becomes ready once it is), unless one was found at Curity's place on the same origin: then
    ///   `upstream.baseURL` is wrong;
    /// - the token endpoint's OAuth refusal (`invalid_client`, a HAAPI refusal), a discovery document of another issuer
    ///   or without its endpoints, a refused DPoP proof, a key that does not load: the configuration.
    static func isTemporary(_ error: HAAPIError) -> Bool {
        switch error.code {
        case .connectionRefused, .nameResolution, .tls, .timeout, .transport:
            return true
        case .upstreamStatus:
            let status = error.status ?? 500
            return status >= 500 || status == 429 || (error.oauthError == nil && !MediaType.isJSON(error.contentType))
        case .malformedResponse:
            return !MediaType.isJSON(error.contentType)
        case .noDiscoveryDocument:
            return error.foundIssuer == nil
        default:
            return false
        }
    }

    /// Retries with backoff until connected (nothing to do when already connected), then waits for shutdown and closes
    /// the client. It never gives up: a misconfiguration found after startup is logged at each attempt and left unready
    /// until the upstream's answer changes.
    public func run() async throws {
        var attempt = 0
        while client == nil {
            let wait = backoff[min(attempt, backoff.count - 1)]
            attempt += 1
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            } catch {
                break
            }
            try? await self.attempt()
        }
        try? await gracefulShutdown()
        try? await client?.shutdown()
    }
}
