import Foundation
import Testing

@testable import HAAPI

/// A flow's ID token validated with the nonce it sent, and its userinfo fetched with its tokens, against the in-test
/// server (a JWK Set at /jwks, userinfo at /userinfo).
@Suite("A flow's ID token and userinfo")
struct HAAPIFlowIdentityTests {
    typealias Up = TestUpstream

    static let key = TestSigningKey.p256("flow-key")

    static func configuration(_ base: URL, bindTokensToDPoP: Bool = false, keySet: Bool = true) -> HAAPIClientConfiguration {
        var configuration = Up.configuration(base, bindTokensToDPoP: bindTokensToDPoP)
        configuration.endpoints?.keySet = keySet ? base.appendingPathComponent("jwks") : nil
        configuration.endpoints?.userinfo = base.appendingPathComponent("userinfo")
        return configuration
    }

    /// The token endpoint answers with an ID token signed for the nonce of the first authorize request it saw;
    /// `userinfo` answers the userinfo endpoint.
    static func handler(
        base: @escaping @Sendable () -> String,
        userinfo: @escaping @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply
    ) -> @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply {
        { request, log in
            switch request.path {
            case Up.tokenPath:
                if request.formValues["grant_type"] == "client_credentials" { return .haapiToken() }
                let nonce = await log.requests(path: Up.authorizePath).first?.queryValues["nonce"] ?? ""
                let now = Int(Date().timeIntervalSince1970)
                let idToken = key.sign(
                    ["iss": base(), "sub": "user-7", "aud": "demo-gateway", "exp": now + 300, "iat": now, "nonce": nonce, "name": "Demo"],
                    algorithm: "ES256"
                )
                let type = request.header("DPoP") != nil ? "DPoP" : "Bearer"
                return .json(
                    200,
                    #"{"access_token":"at-1","token_type":"\#(type)","expires_in":300,"scope":"openid profile","id_token":"\#(idToken)"}"#
                )
            case Up.authorizePath:
                return .step(Up.authorizationResponseStep(state: request.queryValues["state"] ?? ""))
            case "/jwks":
                return .json(200, TestSigningKey.keySet([key.publicJWK()]))
            case "/userinfo":
                return await userinfo(request, log)
            default:
                return ScriptedReply(status: 404)
            }
        }
    }

    static func signIn(_ client: HAAPIClient) async throws -> (HAAPIFlow, OAuthTokens) {
        let flow = client.makeFlow()
        let step = try #require(try await flow.start().representation)
        let tokens = try #require(try await flow.exchangeCode(from: step).tokens)
        return (flow, tokens)
    }

    @Test("the ID token is validated with the nonce the flow sent; another flow's nonce is refused; the JWKS is fetched once per client")
    func idTokenIsValidatedWithTheFlowsNonce() async throws {
        let baseBox = BaseBox()
        try await ScriptedUpstream.run(Self.handler(base: { baseBox.value }, userinfo: { _, _ in ScriptedReply(status: 404) })) { base, log in
            baseBox.value = base.absoluteString
            let client = try await HAAPIClient(configuration: Self.configuration(base))
            defer { Task { try? await client.shutdown() } }
            let (flow, tokens) = try await Self.signIn(client)
            let validated = try #require(try await flow.validateIDToken(of: tokens))
            #expect(validated.subject == "user-7")
            #expect(validated.claims["name"] == .string("Demo"))
            // The token endpoint signs every later token for the first flow's nonce: a second flow must refuse it.
            let (other, otherTokens) = try await Self.signIn(client)
            let refused = await #expect(throws: IDTokenValidationError.self) { try await other.validateIDToken(of: otherTokens) }
            #expect(refused?.reason == .wrongNonce)
            #expect(await log.requests(path: "/jwks").count == 1)
            // Tokens without an ID token have nothing to validate.
            let plain = OAuthTokens(accessToken: "a", expiresIn: nil, refreshToken: nil, tokenType: "Bearer", scope: nil, idToken: nil)
            #expect(try await flow.validateIDToken(of: plain) == nil)
        }
    }

    @Test("without a jwks_uri an ID token is not trusted (keySetUnavailable)")
    func noKeySetMeansNoTrust() async throws {
        let baseBox = BaseBox()
        try await ScriptedUpstream.run(Self.handler(base: { baseBox.value }, userinfo: { _, _ in ScriptedReply(status: 404) })) { base, _ in
            baseBox.value = base.absoluteString
            let client = try await HAAPIClient(configuration: Self.configuration(base, keySet: false))
            defer { Task { try? await client.shutdown() } }
            #expect(client.idTokenValidator == nil)
            let (flow, tokens) = try await Self.signIn(client)
            let refused = await #expect(throws: IDTokenValidationError.self) { try await flow.validateIDToken(of: tokens) }
            #expect(refused?.reason == .keySetUnavailable)
        }
    }

    @Test("userinfo with a Bearer token: its claims; another sub is refused (subjectMismatch); a JWT answer or a 401 is an error naming it")
    func userinfoWithBearerToken() async throws {
        let baseBox = BaseBox()
        let answers = AnswerBox()
        try await ScriptedUpstream.run(
            Self.handler(base: { baseBox.value }) { request, _ in
                #expect(request.header("Authorization") == "Bearer at-1")
                #expect(request.header("DPoP") == nil)
                return answers.next()
            }
        ) { base, _ in
            baseBox.value = base.absoluteString
            let client = try await HAAPIClient(configuration: Self.configuration(base))
            defer { Task { try? await client.shutdown() } }
            let (flow, tokens) = try await Self.signIn(client)
            answers.set([
                .json(200, #"{"sub":"user-7","email":"demo@example.com","address":{"country":"SE"}}"#),
                .json(200, #"{"sub":"someone-else","email":"x@example.com"}"#),
                .json(200, "eyJ.eyJ.sig", contentType: "application/jwt"),
                ScriptedReply(status: 401, headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)]),
            ])
            let claims = try await flow.userinfo(with: tokens, subject: "user-7")
            #expect(claims["email"] == .string("demo@example.com"))
            #expect(claims["address"] == .object(["country": .string("SE")]))
            let mismatch = await #expect(throws: HAAPIError.self) { try await flow.userinfo(with: tokens, subject: "user-7") }
            #expect(mismatch?.code == .subjectMismatch)
            #expect(mismatch.map { !$0.description.contains("someone-else") } == true)
            let jwt = await #expect(throws: HAAPIError.self) { try await flow.userinfo(with: tokens, subject: "user-7") }
            #expect(jwt?.code == .malformedResponse)
            let unauthorized = await #expect(throws: HAAPIError.self) { try await flow.userinfo(with: tokens, subject: "user-7") }
            #expect(unauthorized?.code == .upstreamStatus)
            #expect(unauthorized?.message.contains("invalid_token") == true)
        }
    }

    @Test("userinfo with DPoP-bound tokens: Authorization DPoP and a proof by their key with ath, one use_dpop_nonce answered")
    func userinfoWithDPoPBoundTokens() async throws {
        let baseBox = BaseBox()
        try await ScriptedUpstream.run(
            Self.handler(base: { baseBox.value }) { request, _ in
                #expect(request.header("Authorization") == "DPoP at-1")
                let proof = try? IndependentJWSVerifier.verifyWithEmbeddedJWK(request.header("DPoP") ?? "")
                #expect(proof?.claims["ath"] as? String == IndependentJWSVerifier.sha256Base64URL("at-1"))
                #expect(proof?.claims["htm"] as? String == "GET")
                if proof?.claims["nonce"] as? String != "userinfo-nonce" {
                    return ScriptedReply(
                        status: 401,
                        headers: [("WWW-Authenticate", #"DPoP error="use_dpop_nonce""#), ("DPoP-Nonce", "userinfo-nonce")]
                    )
                }
                return .json(200, #"{"sub":"user-7","email":"demo@example.com"}"#)
            }
        ) { base, log in
            baseBox.value = base.absoluteString
            let client = try await HAAPIClient(configuration: Self.configuration(base, bindTokensToDPoP: true))
            defer { Task { try? await client.shutdown() } }
            let (flow, tokens) = try await Self.signIn(client)
            #expect(tokens.isDPoPBound)
            let claims = try await flow.userinfo(with: tokens, subject: nil)
            #expect(claims["email"] == .string("demo@example.com"))
            #expect(await log.requests(path: "/userinfo").count == 2)
        }
    }
}

/// The in-test server's base URL, known only once it listens.
final class BaseBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = ""
    var value: String {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Scripted answers handed out in order.
final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [ScriptedReply] = []
    func set(_ answers: [ScriptedReply]) { lock.withLock { self.answers = answers } }
    func next() -> ScriptedReply { lock.withLock { answers.isEmpty ? ScriptedReply(status: 500) : answers.removeFirst() } }
}
