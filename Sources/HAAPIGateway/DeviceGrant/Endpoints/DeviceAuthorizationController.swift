import Foundation
import HAAPI
import HTTPTypes
import Hummingbird
import Logging

/// The device's side of the device authorization grant (RFC 8628), served when `devices.enabled`:
/// - `GET /.well-known/oauth-authorization-server`: the metadata standard clients configure themselves from (RFC 8414 §2);
/// - `POST /oauth/device_authorization`: a device code and a user code (RFC 8628 §3.1–3.2);
/// - `POST /oauth/token`: the device polls with its device code (RFC 8628 §3.4–3.5) and refreshes (RFC 6749 §6) through the
///   gateway, which asks the upstream with its own client credentials;
/// - `POST /oauth/revoke`: revocation through the gateway (RFC 7009).
/// Devices never hold the upstream's client secret, nor its refresh token in the clear (``SealedRefreshToken``).
struct DeviceAuthorizationController: Sendable {
    let services: GatewayServices
    let store: any DeviceAuthorizationStore
    let sealer: SealedRefreshToken

    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"
    static let metadataPath = "/.well-known/oauth-authorization-server"
    static let deviceAuthorizationPath = "/oauth/device_authorization"
    static let tokenPath = "/oauth/token"
    static let revocationPath = "/oauth/revoke"
    static let verificationPath = "/device"

    private var logger: Logger { services.logger }
    private var handOvers: DeviceTokenHandOverWriter { DeviceTokenHandOverWriter(store: store, logger: logger) }

    func register(on router: Router<GatewayRequestContext>) {
        router.get(RouterPath(Self.metadataPath)) { request, _ in
            guard let issuer = services.origin(of: request) else { return OAuthEndpointError("invalid_request", "no usable Host").response }
            return Self.json(metadata(issuer: issuer))
        }
        router.post(RouterPath(Self.deviceAuthorizationPath)) { request, context in
            await answer { () async throws(OAuthEndpointError) in try await authorizeDevice(request, context: context) }
        }
        router.post(RouterPath(Self.tokenPath)) { request, context in
            await answer { () async throws(OAuthEndpointError) in try await token(request, context: context) }
        }
        router.post(RouterPath(Self.revocationPath)) { request, context in
            await answer { () async throws(OAuthEndpointError) in try await revoke(request, context: context) }
        }
    }

    /// RFC 8414 §2 metadata: the endpoints, the grants and the client authentication methods.
    func metadata(issuer: String) -> [String: Any] {
        [
            "issuer": issuer,
            "device_authorization_endpoint": issuer + Self.deviceAuthorizationPath,
            "token_endpoint": issuer + Self.tokenPath,
            "revocation_endpoint": issuer + Self.revocationPath,
            "grant_types_supported": [Self.deviceCodeGrant, "refresh_token"],
            "response_types_supported": [String](),
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            "revocation_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            "scopes_supported": services.upstream.client?.configuration.scopes ?? [],
        ]
    }

    /// RFC 8628 §3.1–3.2.
    private func authorizeDevice(_ request: Request, context: GatewayRequestContext) async throws(OAuthEndpointError) -> Response {
        let settings = services.settings(for: context).configuration.devices
        try refuseOtherSites(request)
        let form = try await Self.form(of: request, limit: services.server.maximumRequestBodyBytes)
        let client = try DeviceClientAuthenticator(clients: settings.clients).authenticate(request, form: form)
        guard let issuer = services.origin(of: request) else { throw OAuthEndpointError("invalid_request", "no usable Host") }
        guard let upstream = services.upstream.client else {
            throw Self.unavailable("the upstream has not been reached yet")
        }
        var scopes: [String]?
        if let requested = form.values["scope"]?.split(separator: " ").map(String.init), !requested.isEmpty {
            let configured = upstream.configuration.scopes
            // A device may ask for fewer scopes than the gateway's client has, never for more (RFC 6749 §3.3).
            guard requested.allSatisfy(configured.contains) else {
                throw OAuthEndpointError("invalid_scope", "the scopes this gateway can ask for are: \(configured.joined(separator: " "))")
            }
            scopes = configured.filter(requested.contains)
        }
        guard !services.drain.isDraining else { throw Self.unavailable("the gateway is restarting") }
        if let wait = await services.newSessions.admit(address: context.clientAddress) {
            services.metrics.signInRefused(.addressBudget)
            var error = OAuthEndpointError(
                "temporarily_unavailable",
                "too many sign-ins from this address; try again later",
                status: .tooManyRequests
            )
            error.headers[.retryAfter] = String(wait)
            throw error
        }
        // A public client can be used by anyone: its waiting codes from one address are bounded, so a few addresses
        // cannot fill the cap for everyone.
        if client.secret == nil, let address = context.clientAddress {
            let waiting = try await Self.stored { () async throws(GatewayError) in try await store.waiting(from: address) }
            if waiting >= settings.maximumPendingPerAddress {
                services.metrics.signInRefused(.devicesAddressFull)
                var error = OAuthEndpointError(
                    "temporarily_unavailable",
                    "too many device sign-ins are waiting from this address; try again later",
                    status: .tooManyRequests
                )
                error.headers[.retryAfter] = "60"
                throw error
            }
        }
        let address = context.clientAddress
        guard
            let (deviceCode, authorization) = try await Self.stored({ () async throws(GatewayError) in
                try await store.create(client: client, scopes: scopes, address: address)
            })
        else {
            services.metrics.signInRefused(.devicesFull)
            throw Self.unavailable("too many device sign-ins are waiting")
        }
        logger.info("device authorization started", metadata: ["client": "\(client.id)", "device": "\(authorization.reference)"])
        services.metrics.deviceGrant(.authorized)
        let userCode = UserCode.display(authorization.userCode)
        return Self.json([
            "device_code": deviceCode,
            "user_code": userCode,
            "verification_uri": issuer + Self.verificationPath,
            "verification_uri_complete": issuer + Self.verificationPath + "?user_code=" + userCode,
            "expires_in": settings.codeLifetimeSeconds,
            "interval": settings.pollIntervalSeconds,
        ])
    }

    /// The token endpoint: the device code grant (RFC 8628 §3.4–3.5) and refresh (RFC 6749 §6).
    private func token(_ request: Request, context: GatewayRequestContext) async throws(OAuthEndpointError) -> Response {
        let settings = services.settings(for: context).configuration.devices
        try refuseOtherSites(request)
        let form = try await Self.form(of: request, limit: services.server.maximumRequestBodyBytes)
        let client = try DeviceClientAuthenticator(clients: settings.clients).authenticate(request, form: form)
        switch form.values["grant_type"] {
        case Self.deviceCodeGrant?:
            guard let deviceCode = form.values["device_code"], !deviceCode.isEmpty else {
                throw OAuthEndpointError("invalid_request", "device_code is missing")
            }
            let answer = try await Self.stored { () async throws(GatewayError) in try await store.poll(deviceCode: deviceCode, clientID: client.id) }
            guard case .tokens(let handOver) = answer else {
                throw OAuthEndpointError(answer.errorCode ?? "invalid_grant", Self.describe(answer))
            }
            let response: Response
            do {
                response = try await tokenResponse(handOver.tokens, client: client)
            } catch {
                // Refused to this client and revoked upstream: handed to nobody, and over.
                await handOvers.end(handOver)
                throw error
            }
            logger.info("device collected its tokens", metadata: ["client": "\(client.id)"])
            services.metrics.deviceGrant(.tokensIssued)
            return handOvers.response(response, handingOver: handOver)
        case "refresh_token"?:
            guard let sealed = form.values["refresh_token"], !sealed.isEmpty else {
                throw OAuthEndpointError("invalid_request", "refresh_token is missing")
            }
            guard let contents = sealer.open(sealed, for: client.id) else {
                throw OAuthEndpointError("invalid_grant", "the refresh token is not valid for this client")
            }
            guard let upstream = services.upstream.client else { throw Self.unavailable("the upstream has not been reached yet") }
            let outcome: TokenExchangeOutcome
            do {
                let key = try contents.k.map { pem throws(HAAPIError) in try DPoPKey(pem: pem) }
                outcome = try await upstream.tokenManager.refresh(refreshToken: contents.r, dpopKey: key)
            } catch {
                logger.warning("refresh for a device failed upstream", metadata: ["client": "\(client.id)", "error": "\(error.code)"])
                throw Self.unavailable("the upstream could not be asked")
            }
            switch outcome {
            case .tokens(let tokens):
                let response = try await tokenResponse(tokens, client: client)
                services.metrics.deviceGrant(.refreshed)
                return response
            case .oauthError(let error):
                // The upstream's verdict on its own refresh token (invalid_grant when it has expired or was revoked).
                throw OAuthEndpointError(error.error, error.errorDescription ?? "the upstream refused the refresh token")
            }
        case nil, ""?:
            throw OAuthEndpointError("invalid_request", "grant_type is missing")
        default:
            throw OAuthEndpointError("unsupported_grant_type", "this token endpoint serves the device code and refresh token grants")
        }
    }

    /// RFC 7009: a sealed refresh token is opened for the client and revoked upstream; an access token is revoked upstream
    /// only when the gateway handed it to this client (§2.1: the server "verifies whether the token was issued to the
    /// client making the revocation request"; every replica knows, ``DeviceAuthorizationStore/wasIssued(accessToken:to:)``).
    /// Any other token gets 200 and is left alone, with no upstream call (§2.2: an invalid token is no error).
    private func revoke(_ request: Request, context: GatewayRequestContext) async throws(OAuthEndpointError) -> Response {
        let settings = services.settings(for: context).configuration.devices
        try refuseOtherSites(request)
        let form = try await Self.form(of: request, limit: services.server.maximumRequestBodyBytes)
        let client = try DeviceClientAuthenticator(clients: settings.clients).authenticate(request, form: form)
        guard let token = form.values["token"], !token.isEmpty else { throw OAuthEndpointError("invalid_request", "token is missing") }
        let upstreamToken: String, hint: String
        if token.hasPrefix(SealedRefreshToken.prefix) {
            guard let opened = sealer.open(token, for: client.id) else { return Self.revoked }
            (upstreamToken, hint) = (opened.r, "refresh_token")
        } else {
            let issued = try await Self.stored { () async throws(GatewayError) in try await store.wasIssued(accessToken: token, to: client.id) }
            guard issued else {
                logger.notice("a device asked to revoke a token the gateway did not hand to it; ignored", metadata: ["client": "\(client.id)"])
                return Self.revoked
            }
            (upstreamToken, hint) = (token, "access_token")
        }
        guard let upstream = services.upstream.client else { throw Self.unavailable("the upstream has not been reached yet") }
        do {
            switch try await upstream.tokenManager.revoke(token: upstreamToken, typeHint: hint) {
            case .revoked: break
            case .oauthError(let error):
                logger.notice("the upstream refused a device's revocation", metadata: ["client": "\(client.id)", "error": .untrusted(error.error)])
            }
        } catch {
            // RFC 7009 §2.2.1: 503 tells the client to try again later.
            throw Self.unavailable("the upstream could not be asked")
        }
        logger.info("device revoked a token", metadata: ["client": "\(client.id)", "type": "\(hint)"])
        services.metrics.deviceGrant(.revoked)
        return Self.revoked
    }

    /// RFC 6749 §5.1: the token model, the refresh token sealed for this client. Tokens the upstream bound to the flow's
    /// DPoP key (`token_type` `DPoP`, token-bound codes) are useless without it: to a client configured with
    /// `receivesDPoPKey: true` the key goes with them as `dpop_private_key` (PEM), as it goes to the sinks
    /// (`dpopPrivateKey`); to any other they are refused (`unauthorized_client`, a private key is never sent where nobody
    /// asked for it), revoked upstream, and the log says what to change.
    private func tokenResponse(_ tokens: OAuthTokens, client: DeviceClient) async throws(OAuthEndpointError) -> Response {
        if tokens.isDPoPBound, !client.receivesDPoPKey {
            logger.warning(
                "the upstream bound a device's tokens to a DPoP key, and this device client is not configured to receive the key: the tokens were refused to the device and revoked; set receivesDPoPKey: true on this client in \(ConfigurationKey.devicesClients.path) if it can use DPoP-bound tokens, or turn off what binds them (Curity: \(CurityNames.tokenBoundCodes); since 11.4 also \(CurityNames.authorizationCodeDPoPBinding) and \(CurityNames.tokenDPoPBinding) \(CurityNames.dpopRequired)) and \(ConfigurationKey.upstreamBindTokensToDPoP.path)",
                metadata: ["client": "\(client.id)"]
            )
            services.metrics.deviceGrant(.boundTokensRefused)
            if let upstream = services.upstream.client {
                let (token, hint) = tokens.refreshToken.map { ($0, "refresh_token") } ?? (tokens.accessToken, "access_token")
                _ = try? await upstream.tokenManager.revoke(token: token, typeHint: hint)
            }
            throw OAuthEndpointError(
                "unauthorized_client",
                "the tokens are bound to a DPoP key, which this gateway sends only to device clients configured with receivesDPoPKey"
            )
        }
        var body: [String: Any] = ["access_token": tokens.accessToken, "token_type": tokens.tokenType]
        let boundKey = tokens.isDPoPBound ? tokens.dpopKey?.privateKeyPEM : nil
        if let boundKey { body["dpop_private_key"] = boundKey }
        if let expiresIn = tokens.expiresIn { body["expires_in"] = expiresIn }
        if let refreshToken = tokens.refreshToken, let sealed = sealer.seal(.init(r: refreshToken, k: boundKey), for: client.id) {
            body["refresh_token"] = sealed
        }
        if let idToken = tokens.idToken { body["id_token"] = idToken }
        if let scope = tokens.scope { body["scope"] = scope }
        // What was handed to whom, for revocation (a day when the upstream names no lifetime).
        do {
            try await store.recordIssued(accessToken: tokens.accessToken, to: client.id, forSeconds: tokens.expiresIn ?? 86_400)
        } catch {
            logger.warning(
                "the access token handed to a device could not be noted; the device cannot revoke it through the gateway",
                metadata: ["client": "\(client.id)"]
            )
        }
        return Self.json(body)
    }

    private static let revoked = Response(status: .ok, headers: [.cacheControl: "no-store"])

    private static func describe(_ answer: DevicePollAnswer) -> String {
        switch answer {
        case .tokens: ""
        case .pending: "the person has not finished signing in"
        case .slowDown: "polled before the interval had passed; wait 5 seconds longer between polls"
        case .denied: "the sign-in was refused, cancelled or failed"
        case .expired: "the device code has expired; start again"
        case .invalid: "the device code is not valid for this client (unknown, or already used)"
        }
    }

    /// Devices send neither `Sec-Fetch-Site` nor `Origin`; a browser does, and a web page elsewhere must not make its
    /// visitors ask for device codes (filling the waiting cap from their addresses) or spend anything here: a post that
    /// names another site (``RequestOriginGuard``) is refused before anything is read.
    private func refuseOtherSites(_ request: Request) throws(OAuthEndpointError) {
        do {
            try services.originGuard.check(request)
        } catch {
            throw OAuthEndpointError("invalid_request", "requests from web pages of other sites are not accepted", status: .forbidden)
        }
    }

    /// A store call; its failure (the database unreachable) is `temporarily_unavailable` with `Retry-After`.
    private static func stored<Value>(_ body: () async throws(GatewayError) -> Value) async throws(OAuthEndpointError) -> Value {
        do {
            return try await body()
        } catch {
            throw unavailable("the gateway's store could not be reached")
        }
    }

    private static func unavailable(_ description: String) -> OAuthEndpointError {
        var error = OAuthEndpointError("temporarily_unavailable", description, status: .serviceUnavailable)
        error.headers[.retryAfter] = "5"
        return error
    }

    /// The request's form (RFC 6749 §3.2: `application/x-www-form-urlencoded`, no parameter twice).
    private static func form(of request: Request, limit: Int) async throws(OAuthEndpointError) -> FormBody {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/x-www-form-urlencoded" else {
            throw OAuthEndpointError("invalid_request", "the body must be application/x-www-form-urlencoded")
        }
        let form: FormBody
        do {
            form = try await FormBody.read(request, limit: limit)
        } catch {
            throw OAuthEndpointError("invalid_request", "the body could not be read (at most \(limit) bytes)")
        }
        // Fixed text: a parameter's name is the client's to choose, and is never echoed.
        if !form.repeatedNames.isEmpty { throw OAuthEndpointError("invalid_request", "a parameter is given more than once") }
        return form
    }

    private func answer(_ body: () async throws(OAuthEndpointError) -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return error.response
        }
    }

    static func json(_ body: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "no-store", HTTPField.Name("Pragma")!: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
