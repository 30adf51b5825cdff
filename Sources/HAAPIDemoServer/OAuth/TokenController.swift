import Foundation
import Hummingbird

/// The token, revocation and introspection endpoints.
struct TokenController: Sendable {
    let context: DemoServerContext

    func register(on router: Router<BasicRequestContext>) {
        router.post(RouterPath(DemoPaths.token)) { request, _ in await token(request) }
        router.post(RouterPath(DemoPaths.revoke)) { request, _ in await revoke(request) }
        router.post(RouterPath(DemoPaths.introspect)) { request, _ in await introspect(request) }
    }

    // MARK: Token endpoint

    private func token(_ request: Request) async -> Response {
        // DPoP first: a use_dpop_nonce retry must not burn a one-time client assertion. The nonce sent back is the
        // one for the proof's key (RFC 9449 §8; per key in strict mode).
        let proof: Result<VerifiedDPoPProof?, OAuthError>
        var proofKey: String?
        let proofHeaders = request.headers[values: .dpop]
        if proofHeaders.isEmpty {
            proof = .success(nil)
        } else {
            switch context.dpopVerifier.verify(headerValues: proofHeaders, method: "POST", url: context.proofURL(DemoPaths.token), accessToken: nil) {
            case .success(let verified):
                proof = .success(verified)
                proofKey = verified.keyThumbprint
            case .failure(.useNonce(let keyThumbprint)):
                proof = .failure(.useDPoPNonce)
                proofKey = keyThumbprint
            case .failure(.missing): proof = .failure(.invalidDPoPProof("A DPoP proof is required"))
            case .failure(.invalid(let reason)): proof = .failure(.invalidDPoPProof(reason))
            }
        }
        var headers = context.nonceHeaders(for: proofKey)
        headers[.pragma] = "no-cache"
        switch await tokenResponse(request, proof: proof) {
        case .success(let body): return DemoResponse.json(body, headers: headers)
        case .failure(let error):
            if error.code != "use_dpop_nonce" { context.logger.debug("Token request refused", metadata: ["error": "\(error.code)"]) }
            return DemoResponse.oauthError(error, headers: headers)
        }
    }

    private func tokenResponse(
        _ request: Request,
        proof verifiedProof: Result<VerifiedDPoPProof?, OAuthError>
    ) async
        -> Result<[String: JSONValue], OAuthError>
    {
        let form: FormParameters
        switch await formBody(request) {
        case .failure(let error): return .failure(error)
        case .success(let value): form = value
        }
        let proof: VerifiedDPoPProof?
        switch verifiedProof {
        case .failure(let error): return .failure(error)
        case .success(let value): proof = value
        }
        let client: RegisteredClient
        switch context.clientAuthenticator.authenticate(authorization: request.headers[.authorization], form: form) {
        case .failure(let error): return .failure(error)
        case .success(let value): client = value
        }
        guard let grantType = form.nonEmpty("grant_type") else { return .failure(.invalidRequest("grant_type is missing")) }
        let response: Result<[String: JSONValue], OAuthError>
        switch grantType {
        case "client_credentials": response = clientCredentials(form: form, client: client, proof: proof)
        case "authorization_code": response = authorizationCode(form: form, client: client, proof: proof)
        case "refresh_token": response = refresh(form: form, client: client, proof: proof)
        default: return .failure(.unsupportedGrantType("Supported: client_credentials, authorization_code, refresh_token"))
        }
        if case .success = response { context.grants.issued(grantType) }
        return response
    }

    private func clientCredentials(
        form: FormParameters,
        client: RegisteredClient,
        proof: VerifiedDPoPProof?
    ) -> Result<[String: JSONValue], OAuthError> {
        let scopes = (form["scope"] ?? "").split(separator: " ").map(String.init)
        guard !scopes.isEmpty else { return .failure(.invalidScope("scope is required; use \(RegisteredClient.haapiScope)")) }
        guard scopes.allSatisfy(client.clientCredentialsScopes.contains) else {
            return .failure(.invalidScope("Only \(RegisteredClient.haapiScope) can be requested with client_credentials"))
        }
        guard context.configuration.haapiAllowedWithoutAttestation else {
            let reason = "The client must attest to get a HAAPI token (allow-without-attestation is off)"
            switch context.configuration.attestationRefusal {
            case .unauthorizedClient: return .failure(.unauthorizedClient(reason))
            case .invalidClient: return .failure(.invalidClient(reason))
            }
        }
        guard let proof else { return .failure(.invalidDPoPProof("The HAAPI token is DPoP-bound: a DPoP proof is required")) }
        let now = Date()
        let lifetime = context.configuration.haapiTokenLifetimeSeconds
        let record = IssuedToken(
            kind: .access,
            clientID: client.clientID,
            subject: nil,
            scopes: [RegisteredClient.haapiScope],
            keyThumbprint: proof.keyThumbprint,
            issuedAt: now,
            expiresAt: now.addingTimeInterval(lifetime),
            grantID: RandomToken.make(),
            authTime: nil,
            nonce: nil
        )
        let accessToken = context.tokens.issue(record)
        return .success([
            "access_token": .string(accessToken), "token_type": .string("DPoP"), "expires_in": .number(lifetime.rounded()),
            "scope": .string(RegisteredClient.haapiScope),
        ])
    }

    private func authorizationCode(
        form: FormParameters,
        client: RegisteredClient,
        proof: VerifiedDPoPProof?
    ) -> Result<[String: JSONValue], OAuthError> {
        if let refusal = context.configuration.codeExchangeRefusal {
            return .failure(OAuthError(code: refusal.error, description: refusal.errorDescription, status: 400))
        }
        guard let code = form.nonEmpty("code") else { return .failure(.invalidRequest("code is missing")) }
        guard let redirectURI = form.nonEmpty("redirect_uri") else { return .failure(.invalidRequest("redirect_uri is missing")) }
        guard let verifier = form.nonEmpty("code_verifier") else { return .failure(.invalidRequest("code_verifier is missing (PKCE)")) }
        guard (43...128).contains(verifier.count),
            verifier.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-._~".unicodeScalars.contains($0)) })
        else { return .failure(.invalidRequest("code_verifier is not a valid PKCE verifier")) }
        // Token-bound codes (Curity's `issue-token-bound-authorization-code`, [TOKENBIND], notes 5): the exchange must
        // carry a proof from the key that ran the flow, else `invalid_dpop_proof`. Checked before redeeming: a refused
        // attempt leaves the code unused, so the client can retry with a proof (the demo's choice; Curity's is not documented),
        // unless `consumesCodesOnRefusedProof` says to stand for a server that uses the code up on the refusal: the code is
        // then redeemed for no tokens, and a retry is a second use (`invalid_grant`, RFC 6749 §4.1.2).
        if context.configuration.issueTokenBoundAuthorizationCodes, let boundKey = context.codes.peek(code)?.keyThumbprint {
            guard let proof else {
                if context.configuration.consumesCodesOnRefusedProof {
                    _ = context.codes.redeem(code, grantID: RandomToken.make())
                    context.logger.info("Authorization code used up by an exchange refused for a missing DPoP proof")
                }
                return .failure(.invalidDPoPProof("The authorization code is bound to the DPoP key of the flow: a DPoP proof is required"))
            }
            guard proof.keyThumbprint == boundKey else {
                return .failure(.invalidDPoPProof("The DPoP proof was not made with the key the authorization code is bound to"))
            }
        }
        // A code bound by the authorize request's `dpop_jkt` (RFC 9449 §10; Curity 11.4's `authorization-code-dpop-binding`,
        // [DPOP114]): the exchange is proved with the key of that thumbprint; checked before redeeming, as above.
        if let boundJKT = context.codes.peek(code)?.dpopJKT {
            guard let proof else {
                return .failure(.invalidDPoPProof("The authorization code is bound to a DPoP key (dpop_jkt): a DPoP proof is required"))
            }
            guard proof.keyThumbprint == boundJKT else {
                return .failure(.invalidDPoPProof("The DPoP proof was not made with the key the authorize request's dpop_jkt names"))
            }
        }
        if let refusal = tokenBindingRefusal(proof) { return .failure(refusal) }
        let grantID = RandomToken.make()
        let grant: AuthorizationCode
        switch context.codes.redeem(code, grantID: grantID) {
        case .invalid: return .failure(.invalidGrant("The code is invalid, expired or already used"))
        case .reused(let earlierGrant):
            context.tokens.revokeGrant(earlierGrant)
            context.logger.info("Authorization code presented twice; its tokens are revoked")
            return .failure(.invalidGrant("The code is invalid, expired or already used"))
        case .redeemed(let value): grant = value
        }
        guard grant.clientID == client.clientID else { return .failure(.invalidGrant("The code was issued to another client")) }
        guard grant.redirectURI == redirectURI else { return .failure(.invalidGrant("redirect_uri does not match the authorization request")) }
        guard RandomToken.constantTimeEquals(RandomToken.sha256(verifier), grant.codeChallenge) else {
            return .failure(.invalidGrant("code_verifier does not match the code_challenge"))
        }
        return .success(
            issueUserTokens(
                client: client,
                subject: grant.subject,
                scopes: grant.scopes,
                keyThumbprint: proof?.keyThumbprint,
                grantID: grantID,
                authTime: grant.authTime,
                nonce: grant.nonce
            )
        )
    }

    /// Curity 11.4's `token-dpop-binding` = `required` ([DPOP114]): a sign-in's token request (code exchange, refresh)
    /// without a valid proof is refused. The error is RFC 9449's (§7.1): Curity's pages do not show one.
    private func tokenBindingRefusal(_ proof: VerifiedDPoPProof?) -> OAuthError? {
        guard proof == nil, context.configuration.tokenDPoPBinding == .required else { return nil }
        return .invalidDPoPProof("A DPoP proof is required: the client's tokens are bound to a DPoP key")
    }

    private func refresh(form: FormParameters, client: RegisteredClient, proof: VerifiedDPoPProof?) -> Result<[String: JSONValue], OAuthError> {
        guard let refreshToken = form.nonEmpty("refresh_token") else { return .failure(.invalidRequest("refresh_token is missing")) }
        if let refusal = tokenBindingRefusal(proof) { return .failure(refusal) }
        if let current = context.tokens.lookup(refreshToken, kind: .refresh) {
            guard current.clientID == client.clientID else { return .failure(.invalidGrant("The refresh token was issued to another client")) }
            if let bound = current.keyThumbprint {
                guard let proof else { return .failure(.invalidDPoPProof("The refresh token is DPoP-bound: a DPoP proof is required")) }
                guard proof.keyThumbprint == bound else { return .failure(.invalidDPoPProof("The proof key does not match the refresh token")) }
            }
        }
        let reused = context.configuration.reusesRefreshTokens
        let redeemed =
            reused
            ? context.tokens.lookup(refreshToken, kind: .refresh)
            : context.tokens.redeemRefreshToken(refreshToken, revokingGrantOnReuse: context.configuration.revokesGrantOnRefreshTokenReuse)
        guard let record = redeemed else {
            return .failure(.invalidGrant("The refresh token is invalid, expired, revoked or already used"))
        }
        var scopes = record.scopes
        if let requested = form.nonEmpty("scope") {
            let narrowed = requested.split(separator: " ").map(String.init)
            guard narrowed.allSatisfy(record.scopes.contains) else { return .failure(.invalidScope("scope exceeds the original grant")) }
            scopes = narrowed
        }
        return .success(
            issueUserTokens(
                client: client,
                subject: record.subject ?? "",
                scopes: scopes,
                keyThumbprint: record.keyThumbprint ?? proof?.keyThumbprint,
                grantID: record.grantID,
                authTime: record.authTime ?? Date(),
                nonce: record.nonce,
                refreshScopes: record.scopes,
                keptRefreshToken: reused ? refreshToken : nil
            )
        )
    }

    private func issueUserTokens(
        client: RegisteredClient,
        subject: String,
        scopes: [String],
        keyThumbprint: String?,
        grantID: String,
        authTime: Date,
        nonce: String?,
        refreshScopes: [String]? = nil,
        keptRefreshToken: String? = nil
    ) -> [String: JSONValue] {
        let now = Date()
        let configuration = context.configuration
        let access = IssuedToken(
            kind: .access,
            clientID: client.clientID,
            subject: subject,
            scopes: scopes,
            keyThumbprint: keyThumbprint,
            issuedAt: now,
            expiresAt: now.addingTimeInterval(configuration.accessTokenLifetimeSeconds),
            grantID: grantID,
            authTime: authTime,
            nonce: nonce
        )
        let refresh = IssuedToken(
            kind: .refresh,
            clientID: client.clientID,
            subject: subject,
            scopes: refreshScopes ?? scopes,
            keyThumbprint: keyThumbprint,
            issuedAt: now,
            expiresAt: now.addingTimeInterval(configuration.refreshTokenLifetimeSeconds),
            grantID: grantID,
            authTime: authTime,
            nonce: nonce
        )
        var body: [String: JSONValue] = [
            "access_token": .string(context.tokens.issue(access)), "token_type": .string(access.tokenType),
            "expires_in": .number(configuration.accessTokenLifetimeSeconds.rounded()), "scope": .string(scopes.joined(separator: " ")),
            "refresh_token": .string(keptRefreshToken ?? context.tokens.issue(refresh)),
        ]
        if scopes.contains("openid"), let signed = try? idToken(subject: subject, client: client, authTime: authTime, nonce: nonce, scopes: scopes) {
            body["id_token"] = .string(signed)
        }
        return body
    }

    private func idToken(subject: String, client: RegisteredClient, authTime: Date, nonce: String?, scopes: [String]) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(context.issuer), "sub": .string(subject), "aud": .string(client.clientID),
            "exp": .number(Double(now + 300)), "iat": .number(Double(now)), "auth_time": .number(authTime.timeIntervalSince1970.rounded(.down)),
            "azp": .string(client.clientID),
        ]
        if let nonce { claims["nonce"] = .string(context.configuration.idTokenFault == .wrongNonce ? "not-the-nonce-of-the-request" : nonce) }
        if let user = DemoUser.named(subject) {
            if scopes.contains("profile") {
                claims["name"] = .string(user.name)
                claims["preferred_username"] = .string(user.username)
            }
            if scopes.contains("email") {
                claims["email"] = .string(user.email)
                claims["email_verified"] = .bool(true)
            }
        }
        let signer = context.configuration.idTokenFault == .wrongSignature ? context.idTokenSigner.impostor() : context.idTokenSigner
        return try signer.sign(claims: claims)
    }

    // MARK: Revocation and introspection

    private func revoke(_ request: Request) async -> Response {
        let form: FormParameters, client: RegisteredClient, token: String
        switch await authenticatedTokenRequest(request) {
        case .failure(let error): return DemoResponse.oauthError(error)
        case .success(let value): (form, client, token) = value
        }
        if let hint = form["token_type_hint"], hint != "access_token", hint != "refresh_token" {
            return DemoResponse.oauthError(.init(code: "unsupported_token_type", description: "Unknown token_type_hint", status: 400))
        }
        context.tokens.revoke(token, clientID: client.clientID)
        var headers: HTTPFields = [:]
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers)
    }

    private func introspect(_ request: Request) async -> Response {
        let client: RegisteredClient, token: String
        switch await authenticatedTokenRequest(request) {
        case .failure(let error): return DemoResponse.oauthError(error)
        case .success(let value): (_, client, token) = value
        }
        guard let record = context.tokens.lookup(token, kind: .access) ?? context.tokens.lookup(token, kind: .refresh),
            record.clientID == client.clientID
        else { return DemoResponse.json(["active": JSONValue.bool(false)]) }
        var body: [String: JSONValue] = [
            "active": .bool(true), "client_id": .string(record.clientID), "scope": .string(record.scopes.joined(separator: " ")),
            "token_type": .string(record.kind == .access ? record.tokenType : "refresh_token"),
            "exp": .number(record.expiresAt.timeIntervalSince1970.rounded(.down)),
            "iat": .number(record.issuedAt.timeIntervalSince1970.rounded(.down)), "iss": .string(context.issuer),
        ]
        if let subject = record.subject { body["sub"] = .string(subject) }
        if let jkt = record.keyThumbprint { body["cnf"] = .object(["jkt": .string(jkt)]) }
        return DemoResponse.json(body)
    }

    // MARK: Helpers

    /// The URL-encoded body; refuses other content types, oversize bodies and repeated parameters.
    /// The common start of revocation and introspection (RFC 7009, RFC 7662): the form body, an authenticated
    /// client, and the `token` parameter.
    private func authenticatedTokenRequest(_ request: Request) async -> Result<(FormParameters, RegisteredClient, String), OAuthError> {
        let form: FormParameters
        switch await formBody(request) {
        case .failure(let error): return .failure(error)
        case .success(let value): form = value
        }
        switch context.clientAuthenticator.authenticate(authorization: request.headers[.authorization], form: form) {
        case .failure(let error): return .failure(error)
        case .success(let client):
            guard let token = form.nonEmpty("token") else { return .failure(.invalidRequest("token is missing")) }
            return .success((form, client, token))
        }
    }

    private func formBody(_ request: Request) async -> Result<FormParameters, OAuthError> {
        let text: String
        switch await RequestBodyReader(maximumBytes: context.configuration.maximumRequestBodyBytes).text(of: request) {
        case .failure(.tooLarge): return .failure(.init(code: "invalid_request", description: "The request body is too large", status: 413))
        case .failure(.unreadable): return .failure(.invalidRequest("The request body could not be read"))
        case .success(let value): text = value
        }
        let contentType = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard contentType == FormModel.urlEncoded else {
            return .failure(.invalidRequest("The body must be application/x-www-form-urlencoded"))
        }
        let form = FormParameters(encoded: text)
        guard form.isWellFormed else { return .failure(.invalidRequest("The body is not well-formed")) }
        if let repeated = form.repeatedNames.sorted().first { return .failure(.invalidRequest("Repeated parameter: \(repeated)")) }
        return .success(form)
    }
}
