import Foundation
import HAAPI
import HAAPIDemoServer
import Testing

/// The HAAPI library validating ID tokens the demo signs with Ed25519 (`idTokenSigningAlgorithm: .ed25519`), as a
/// Curity token profile with an EdDSA key signs them ([EDDSA]), over real HTTP on loopback.
@Suite("ID tokens signed with Ed25519, validated against the demo server")
struct IDTokenAlgorithmsAgainstDemoServerTests {
    private func withEd25519Upstream(
        _ configure: @escaping (inout DemoServerConfiguration) -> Void = { _ in },
        _ body: (DemoUpstream) async throws -> Void
    ) async throws {
        try await DemoUpstream.start(configure: {
            $0.idTokenSigningAlgorithm = .ed25519
            configure(&$0)
        }).closing(body)
    }

    /// demo/demo through the password form and the notice, then the code exchange.
    private func signInAsDemo(_ flow: HAAPIFlow) async throws -> OAuthTokens {
        let walker = SignInWalker(flow: flow)
        let form = try await walker.chooseAuthenticator("html-form", on: try await walker.start())
        let notice = try await walker.submitExpectingStep(.login, on: form, ["userName": "demo", "password": "demo"])
        let done = try await walker.submitExpectingStep(.continue, on: notice)
        #expect(done.stepKind == .oauthAuthorizationResponse)
        return try #require(try await flow.exchangeCode(from: done).tokens)
    }

    /// The `kid` of the demo's one published key.
    private func publishedKeyID(_ upstream: DemoUpstream) async throws -> String? {
        let body = try await DemoUpstream.fetch(upstream.server.baseURL.appendingPathComponent("oauth/v2/oauth-anonymous/jwks").absoluteString)
        let keys = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["keys"] as? [[String: Any]]
        return keys?.first?["kid"] as? String
    }

    @Test("an ID token the demo signs with Ed25519 validates: the library reads the OKP key from the JWKS and checks the claims")
    func ed25519IDTokenValidates() async throws {
        try await withEd25519Upstream { upstream in
            let flow = upstream.client.makeFlow()
            let tokens = try await signInAsDemo(flow)
            let validated = try #require(try await flow.validateIDToken(of: tokens))
            #expect(validated.subject == "demo")
            #expect(validated.algorithm == .edDSA)
            let keyID = try await publishedKeyID(upstream)
            #expect(keyID != nil && validated.keyID == keyID)
            #expect(validated.claims["email"]?.stringValue != nil)
        }
    }

    @Test("an Ed25519 ID token signed by another key under the published kid is refused (invalidSignature)")
    func ed25519WrongSignatureIsRefused() async throws {
        try await withEd25519Upstream({ $0.idTokenFault = .wrongSignature }) { upstream in
            let flow = upstream.client.makeFlow()
            let tokens = try await signInAsDemo(flow)
            let refused = await #expect(throws: IDTokenValidationError.self) { try await flow.validateIDToken(of: tokens) }
            #expect(refused?.reason == .invalidSignature)
        }
    }

    @Test("a demo advertising Ed448 and HS256 beside EdDSA: JWSAlgorithm.unvalidatable names Ed448 and HS256, and the EdDSA sign-in still validates")
    func advertisedAlgorithmsTheValidatorCannotValidate() async throws {
        try await withEd25519Upstream({ $0.advertisedIDTokenAlgorithms = ["EdDSA", "Ed448", "HS256"] }) { upstream in
            let body = try await DemoUpstream.fetch(upstream.server.issuer + "/.well-known/openid-configuration")
            let metadata = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let advertised = try #require(metadata["id_token_signing_alg_values_supported"] as? [String])
            #expect(JWSAlgorithm.unvalidatable(advertised) == ["Ed448", "HS256"])
            let flow = upstream.client.makeFlow()
            let tokens = try await signInAsDemo(flow)
            #expect(try await flow.validateIDToken(of: tokens)?.algorithm == .edDSA)
        }
    }
}
