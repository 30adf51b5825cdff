import Crypto
import Foundation
import Testing

@testable import HAAPI

/// Code exchange, refresh, revocation, client authentication and discovery against the in-test server.
@Suite struct TokenManagerHTTPTests {
    typealias Up = TestUpstream

    static let finalTokensJSON =
        #"{"access_token":"at-1","token_type":"Bearer","expires_in":300,"refresh_token":"rt-1","scope":"openid profile","id_token":"id.tok.en"}"#

    /// Token endpoint: HAAPI token for client_credentials, final tokens otherwise.
    static func handler(
        authorize: @escaping @Sendable (RecordedRequest) -> ScriptedReply,
        finalTokens: String = finalTokensJSON
    ) -> @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply {
        { request, _ in
            switch request.path {
            case Up.tokenPath:
                if request.formValues["grant_type"] == "client_credentials" { return .haapiToken() }
                let bound = request.header("DPoP") != nil
                return .json(200, bound ? finalTokens.replacingOccurrences(of: "\"Bearer\"", with: "\"DPoP\"") : finalTokens)
            case Up.revokePath:
                return ScriptedReply(status: 200)
            case Up.authorizePath:
                return authorize(request)
            default:
                return .step(Up.loginStep)
            }
        }
    }

    static let echoState: @Sendable (RecordedRequest) -> ScriptedReply = { request in
        .step(Up.authorizationResponseStep(state: request.queryValues["state"] ?? ""))
    }

    @Test func codeIsExchangedOnceWithVerifierRedirectURIAndState() async throws {
        try await ScriptedUpstream.run(Self.handler(authorize: Self.echoState)) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let step = try #require(try await flow.start().representation)
            #expect(step.stepKind == .oauthAuthorizationResponse)
            let outcome = try await flow.exchangeCode(from: step)
            let tokens = try #require(outcome.tokens)
            #expect(
                tokens
                    == OAuthTokens(
                        accessToken: "at-1",
                        expiresIn: 300,
                        refreshToken: "rt-1",
                        tokenType: "Bearer",
                        scope: "openid profile",
                        idToken: "id.tok.en"
                    )
            )
            #expect(tokens.dpopKey == nil)

            let authorize = try #require(await log.requests(path: Up.authorizePath).first)
            let exchange = try #require(await log.requests(path: Up.tokenPath).last)
            let form = exchange.formValues
            #expect(form["grant_type"] == "authorization_code")
            #expect(form["code"] == "code-123")
            #expect(form["redirect_uri"] == "haapi:start")
            let verifier = try #require(form["code_verifier"])
            #expect(PKCE.challenge(for: verifier) == authorize.queryValues["code_challenge"])
            #expect(exchange.header("DPoP") == nil)

            let again = await #expect(throws: HAAPIError.self) { try await flow.exchangeCode(from: step) }
            #expect(again?.code == .flowExpired)
            let afterwards = await #expect(throws: HAAPIError.self) { try await flow.submitForm(try Up.loginAction(), parameters: [:]) }
            #expect(afterwards?.code == .flowExpired)
            #expect(await log.requests(path: Up.tokenPath).count == 2)
        }
    }

    @Test func wrongStateOrIssuerIsRefusedWithoutCallingTheTokenEndpoint() async throws {
        try await ScriptedUpstream.run(Self.handler(authorize: { _ in .step(Up.authorizationResponseStep(state: "forged")) })) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let step = try #require(try await flow.start().representation)
            let error = await #expect(throws: HAAPIError.self) { try await flow.exchangeCode(from: step) }
            #expect(error?.code == .authorizationResponseMismatch)
            #expect(await log.requests(path: Up.tokenPath).count == 1)
        }
        try await ScriptedUpstream.run(
            Self.handler(authorize: { request in
                .step(Up.authorizationResponseStep(state: request.queryValues["state"] ?? "", issuer: "https://other-issuer"))
            })
        ) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let step = try #require(try await flow.start().representation)
            let error = await #expect(throws: HAAPIError.self) { try await flow.exchangeCode(from: step) }
            #expect(error?.code == .authorizationResponseMismatch)
            #expect(await log.requests(path: Up.tokenPath).count == 1)
        }
    }

    /// Issue #55's probe: `"DPoP "` was taken as Bearer, and its token handed to tools that cannot prove it.
    @Test("token_type DPoP is known without case and without the white space around it; anything else is not DPoP")
    func dpopTokenTypeIsTrimmed() {
        for type in ["DPoP", "dpop", "DPoP ", " DPoP", "DPoP\n", "\tdPoP"] { #expect(OAuthTokens.isDPoP(tokenType: type), "\(type)") }
        for type in ["Bearer", "DPoPx", "D PoP", "", "bearer "] { #expect(!OAuthTokens.isDPoP(tokenType: type), "\(type)") }
    }

    @Test func dpopBoundExchangeReturnsTheKeyThatSignedTheProof() async throws {
        try await ScriptedUpstream.run(Self.handler(authorize: Self.echoState)) { base, log in
            let client = try await Up.client(base) { $0.bindTokensToDPoP = true }
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let step = try #require(try await flow.start().representation)
            let tokens = try #require(try await flow.exchangeCode(from: step).tokens)
            #expect(tokens.tokenType == "DPoP" && tokens.isDPoPBound)
            let key = try #require(tokens.dpopKey)
            let exchange = try #require(await log.requests(path: Up.tokenPath).last)
            let verified = try IndependentJWSVerifier.verifyWithEmbeddedJWK(try #require(exchange.header("DPoP")))
            #expect((verified.header["jwk"] as? [String: String])?["x"] == key.publicJWK.x)
            #expect(key.publicJWK == flow.dpopPublicJWK)
            let reloaded = try P256.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM)
            #expect(reloaded.publicKey.rawRepresentation == key.privateKey.publicKey.rawRepresentation)
            #expect(!String(describing: tokens).contains("at-1"))

            // Refresh of bound tokens is signed with the same key.
            let refreshed = try await client.tokenManager.refresh(tokens)
            #expect(refreshed.tokens != nil)
            let refresh = try #require(await log.requests(path: Up.tokenPath).last)
            #expect(refresh.formValues["grant_type"] == "refresh_token" && refresh.formValues["refresh_token"] == "rt-1")
            let refreshProof = try IndependentJWSVerifier.verifyWithEmbeddedJWK(try #require(refresh.header("DPoP")))
            #expect((refreshProof.header["jwk"] as? [String: String])?["x"] == key.publicJWK.x)
        }
    }

    @Test func oauthErrorsAreValuesNotThrownErrors() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            if request.path == Up.revokePath { return .json(400, #"{"error":"unsupported_token_type"}"#) }
            return .json(400, #"{"error":"invalid_grant","error_description":"The code was already used","error_uri":"https://docs/e"}"#)
        }
        try await ScriptedUpstream.run(handler) { base, _ in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let outcome = try await client.tokenManager.refresh(refreshToken: "rt-x")
            #expect(
                outcome.oauthError
                    == OAuthErrorResponse(
                        error: "invalid_grant",
                        errorDescription: "The code was already used",
                        errorURI: "https://docs/e",
                        httpStatus: 400
                    )
            )
            let revoked = try await client.tokenManager.revoke(token: "rt-x", typeHint: "refresh_token")
            #expect(
                revoked == .oauthError(OAuthErrorResponse(error: "unsupported_token_type", errorDescription: nil, errorURI: nil, httpStatus: 400))
            )
        }
    }

    @Test func revocationPostsTokenAndHintWithClientAuthentication() async throws {
        try await ScriptedUpstream.run(Self.handler(authorize: Self.echoState)) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let tokens = OAuthTokens(accessToken: "at", expiresIn: 1, refreshToken: "rt-9", tokenType: "Bearer", scope: nil, idToken: nil)
            #expect(try await client.tokenManager.revoke(tokens) == .revoked)
            let request = try #require(await log.requests(path: Up.revokePath).first)
            #expect(request.formValues == ["token": "rt-9", "token_type_hint": "refresh_token"])
            #expect(request.header("Authorization")?.hasPrefix("Basic ") == true)
        }
    }

    @Test func tokenEndpointServerErrorIsThrown() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { _, _ in
            .json(500, "<html>oops</html>", contentType: "text/html")
        }
        try await ScriptedUpstream.run(handler) { base, _ in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let error = await #expect(throws: HAAPIError.self) { try await client.tokenManager.refresh(refreshToken: "rt") }
            #expect(error?.code == .upstreamStatus && error?.status == 500)
            let start = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(start?.code == .upstreamStatus)
        }
    }

    @Test func clientSecretBasicSendsFormEncodedCredentialsInTheHeader() async throws {
        try await ScriptedUpstream.run(Self.handler(authorize: Self.echoState)) { base, log in
            let client = try await Up.client(base) { $0.clientAuthentication = .secretBasic("s3cr:t +&") }
            defer { Task { try? await client.shutdown() } }
            _ = try await client.makeFlow().start()
            let token = try #require(await log.requests(path: Up.tokenPath).first)
            let header = try #require(token.header("Authorization"))
            #expect(header.hasPrefix("Basic "))
            let decoded = String(decoding: try #require(Data(base64Encoded: String(header.dropFirst(6)))), as: UTF8.self)
            #expect(decoded == "demo-gateway:s3cr%3At+%2B%26")
            #expect(token.formValues["client_secret"] == nil)
            #expect(token.formValues["client_id"] == nil)
        }
    }

    @Test func clientSecretPostSendsCredentialsInTheBody() async throws {
        try await ScriptedUpstream.run(Self.handler(authorize: Self.echoState)) { base, log in
            let client = try await Up.client(base) { $0.clientAuthentication = .secretPost("post-secret") }
            defer { Task { try? await client.shutdown() } }
            _ = try await client.makeFlow().start()
            let token = try #require(await log.requests(path: Up.tokenPath).first)
            #expect(token.header("Authorization") == nil)
            #expect(token.formValues["client_id"] == "demo-gateway")
            #expect(token.formValues["client_secret"] == "post-secret")
        }
    }

    @Test func privateKeyJWTAssertionVerifiesWithTheClientKeyAndHasExactClaims() async throws {
        let signingKey = P256.Signing.PrivateKey()
        let pem = signingKey.pemRepresentation
        let publicKeyBytes = signingKey.publicKey.rawRepresentation
        try await ScriptedUpstream.run(Self.handler(authorize: Self.echoState)) { base, log in
            let client = try await Up.client(base) { $0.clientAuthentication = .privateKeyJWT(privateKeyPEM: pem, keyID: "key-1") }
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let step = try #require(try await flow.start().representation)
            _ = try await flow.exchangeCode(from: step)
            let publicKey = try P256.Signing.PublicKey(rawRepresentation: publicKeyBytes)
            let requests = await log.requests(path: Up.tokenPath)
            #expect(requests.count == 2)
            var jtis = Set<String>()
            for request in requests {
                let form = request.formValues
                #expect(form["client_id"] == "demo-gateway")
                #expect(form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
                #expect(request.header("Authorization") == nil)
                let verified = try IndependentJWSVerifier.verify(try #require(form["client_assertion"]), key: publicKey)
                #expect(verified.header["alg"] as? String == "ES256")
                #expect(verified.header["kid"] as? String == "key-1")
                #expect(Set(verified.claims.keys) == ["iss", "sub", "aud", "jti", "iat", "exp"])
                #expect(verified.claims["iss"] as? String == "demo-gateway")
                #expect(verified.claims["sub"] as? String == "demo-gateway")
                #expect(verified.claims["aud"] as? String == base.absoluteString + Up.tokenPath)
                let iat = try #require((verified.claims["iat"] as? NSNumber)?.intValue)
                let exp = try #require((verified.claims["exp"] as? NSNumber)?.intValue)
                #expect(exp > iat && exp - iat <= 300)
                #expect(abs(iat - Int(Date().timeIntervalSince1970)) < 60)
                jtis.insert(try #require(verified.claims["jti"] as? String))
            }
            #expect(jtis.count == 2)
            let firstAssertion = try #require(requests[0].formValues["client_assertion"])
            #expect(throws: IndependentJWSVerifier.Failure.self) {
                try IndependentJWSVerifier.verify(firstAssertion, key: P256.Signing.PrivateKey().publicKey)
            }
        }
    }

    @Test func discoveryProvidesTheEndpoints() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case "/.well-known/openid-configuration":
                let base = "http://\(request.header("Host") ?? "")"
                return .json(
                    200,
                    #"{"issuer":"\#(base)","authorization_endpoint":"\#(base)/oauth/authorize","token_endpoint":"\#(base)/oauth/token","revocation_endpoint":"\#(base)/oauth/revoke","dpop_signing_alg_values_supported":["ES256"]}"#
                )
            case Up.tokenPath: return .haapiToken()
            default: return .step(Up.loginStep)
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await HAAPIClient(configuration: Up.configuration(base, explicitEndpoints: false))
            defer { Task { try? await client.shutdown() } }
            #expect(client.endpoints.token.absoluteString == base.absoluteString + Up.tokenPath)
            #expect(client.endpoints.revocation?.absoluteString == base.absoluteString + Up.revokePath)
            #expect(client.endpoints.issuer == base.absoluteString)
            _ = try await client.makeFlow().start()
            #expect(await log.requests(path: Up.authorizePath).count == 1)
        }
    }

    @Test func brokenDiscoveryDocumentIsAMalformedResponse() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { _, _ in .json(200, #"{"jwks_uri":"x"}"#) }
        try await ScriptedUpstream.run(handler) { base, _ in
            let error = await #expect(throws: HAAPIError.self) {
                try await HAAPIClient(configuration: Up.configuration(base, explicitEndpoints: false))
            }
            #expect(error?.code == .malformedResponse)
        }
    }
}
