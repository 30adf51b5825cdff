import Foundation
import Synchronization
import Testing

@testable import HAAPI

/// ID tokens checked as OpenID Connect Core 1.0 §3.1.3.7 asks, with keys generated in the test and a JWK Set served by a
/// closure transport that counts its fetches.
@Suite("ID token validation (OpenID Connect Core §3.1.3.7)")
struct IDTokenValidatorTests {
    static let issuer = "https://login.example"
    static let clientID = "haapi-gateway"
    static let nonce = "n-0S6_WzA2Mj"
    static let keySetURL = URL(string: "https://login.example/jwks")!

    /// A JWK Set endpoint whose document the test can change, counting fetches.
    final class KeySetEndpoint: Sendable {
        let document: Mutex<String>
        let status = Mutex(200)
        let fetches = Mutex(0)
        init(_ keys: [[String: String]]) { document = Mutex(TestSigningKey.keySet(keys)) }
        func publish(_ keys: [[String: String]]) { document.withLock { $0 = TestSigningKey.keySet(keys) } }
        var fetchCount: Int { fetches.withLock { $0 } }

        func validator(minimumRefetchInterval: Duration = .seconds(5), keySetMaximumAge: Duration = .seconds(3600)) -> IDTokenValidator {
            IDTokenValidator(
                issuer: IDTokenValidatorTests.issuer,
                clientID: IDTokenValidatorTests.clientID,
                keySetURL: IDTokenValidatorTests.keySetURL,
                transport: ClosureHAAPITransport { request in
                    #expect(request.url == IDTokenValidatorTests.keySetURL)
                    self.fetches.withLock { $0 += 1 }
                    try await Task.sleep(for: .milliseconds(20))
                    return HTTPResponseData(
                        status: self.status.withLock { $0 },
                        headers: [("Content-Type", "application/jwk-set+json")],
                        body: Data(self.document.withLock { $0 }.utf8)
                    )
                },
                minimumRefetchInterval: minimumRefetchInterval,
                keySetMaximumAge: keySetMaximumAge
            )
        }
    }

    static func claims(_ changes: [String: Any?] = [:], now: Date = Date()) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": issuer, "sub": "user-7", "aud": clientID, "azp": clientID, "exp": Int(now.timeIntervalSince1970) + 300,
            "iat": Int(now.timeIntervalSince1970), "nonce": nonce, "email": "demo@example.com", "email_verified": true,
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    static func refusal(_ validator: IDTokenValidator, _ token: String, nonce: String? = nonce, now: Date = Date()) async -> IDTokenValidationError? {
        do {
            let accepted = try await validator.validate(token, nonce: nonce, now: now)
            Issue.record("accepted, but should have been refused: \(accepted)")
            return nil
        } catch {
            return error
        }
    }

    @Test("a token signed with each accepted algorithm is accepted, its subject and claims as sent", arguments: JWSAlgorithm.allCases)
    func everyAcceptedAlgorithmVerifies(_ algorithm: JWSAlgorithm) async throws {
        let key = TestSigningKey.forAlgorithm(algorithm.rawValue)
        let endpoint = KeySetEndpoint([key.publicJWK()])
        let token = try await endpoint.validator().validate(key.sign(Self.claims(), algorithm: algorithm.rawValue), nonce: Self.nonce)
        #expect(token.subject == "user-7")
        #expect(token.algorithm == algorithm)
        #expect(token.claims["email"] == .string("demo@example.com"))
        #expect(token.claims["email_verified"] == .bool(true))
        #expect(!token.description.contains("demo@example.com"), "the description names claims, never their values")
    }

    @Test("a tampered signature, or claims changed under the signature, are refused (invalidSignature)")
    func tamperedTokensAreRefused() async throws {
        let key = TestSigningKey.p256()
        let validator = KeySetEndpoint([key.publicJWK()]).validator()
        let token = key.sign(Self.claims(), algorithm: "ES256")
        var parts = token.split(separator: ".").map(String.init)
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[5] ^= 0x01
        let flipped = parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
        #expect(await Self.refusal(validator, flipped)?.reason == .invalidSignature)
        parts[1] = TestSigningKey.segment(Self.claims(["sub": "admin"]))
        #expect(await Self.refusal(validator, parts.joined(separator: "."))?.reason == .invalidSignature)
        // RSA too, and another key that claims the same kid.
        let rsa = TestSigningKey.sharedRSA
        let rsaValidator = KeySetEndpoint([rsa.publicJWK()]).validator()
        #expect(await Self.refusal(rsaValidator, TestSigningKey.otherRSA.sign(Self.claims(), algorithm: "RS256"))?.reason == .invalidSignature)
        let untouched = try await validator.validate(token, nonce: Self.nonce)
        #expect(untouched.subject == "user-7")
    }

    @Test("alg none and HS256 are refused whatever the signature (unsupportedAlgorithm); so is a critical header extension")
    func noneAndHMACAreRefused() async throws {
        let key = TestSigningKey.p256()
        let validator = KeySetEndpoint([key.publicJWK()]).validator()
        #expect(await Self.refusal(validator, TestSigningKey.unsigned(Self.claims()))?.reason == .unsupportedAlgorithm)
        // `none` with a real signature of the same claims attached.
        let signed = key.sign(Self.claims(), algorithm: "ES256").split(separator: ".").map(String.init)
        let noneHeader = TestSigningKey.segment(["alg": "none", "kid": key.keyID])
        #expect(await Self.refusal(validator, noneHeader + "." + signed[1] + "." + signed[2])?.reason == .unsupportedAlgorithm)
        let hmac = await Self.refusal(validator, TestSigningKey.hmacSigned(Self.claims(), secret: "demo-secret-demo-secret-demo-secret"))
        #expect(hmac?.reason == .unsupportedAlgorithm)
        #expect(hmac?.message.contains("HS256") == true)
        let critical = key.sign(Self.claims(), algorithm: "ES256", extraHeader: ["crit": ["exp"], "exp": 1])
        #expect(await Self.refusal(validator, critical)?.reason == .unsupportedAlgorithm)
    }

    @Test("a key is used only for its own type, curve and alg: an ES256 header never reaches an RSA key, an RS256 key never verifies PS256")
    func keysAreBoundToTheirAlgorithms() async throws {
        let rsa = TestSigningKey.sharedRSA
        let validator = KeySetEndpoint([rsa.publicJWK(extra: ["alg": "RS256"])]).validator()
        #expect(await Self.refusal(validator, rsa.sign(Self.claims(), algorithm: "PS256"))?.reason == .unknownKey)
        #expect(await Self.refusal(validator, TestSigningKey.p256(rsa.keyID).sign(Self.claims(), algorithm: "ES256"))?.reason == .unknownKey)
        // An encryption key and a key with private members are not used.
        let ec = TestSigningKey.p256()
        let skipping = KeySetEndpoint([ec.publicJWK(extra: ["use": "enc"]), ec.publicJWK(extra: ["d": "AAAA"])]).validator()
        #expect(await Self.refusal(skipping, ec.sign(Self.claims(), algorithm: "ES256"))?.reason == .unknownKey)
    }

    @Test("an unknown kid makes the JWKS be fetched again once; still unknown, it is refused (unknownKey), and not fetched again within the interval")
    func unknownKeyIsFetchedOnceThenRefused() async throws {
        let key = TestSigningKey.p256("current")
        let endpoint = KeySetEndpoint([key.publicJWK()])
        let validator = endpoint.validator(minimumRefetchInterval: .seconds(60))
        _ = try await validator.validate(key.sign(Self.claims(), algorithm: "ES256"), nonce: Self.nonce)
        #expect(endpoint.fetchCount == 1)
        let stranger = TestSigningKey.p256("stranger")
        #expect(await Self.refusal(validator, stranger.sign(Self.claims(), algorithm: "ES256"))?.reason == .unknownKey)
        #expect(endpoint.fetchCount == 2, "fetched again once for the unknown kid")
        #expect(await Self.refusal(validator, stranger.sign(Self.claims(), algorithm: "ES256"))?.reason == .unknownKey)
        #expect(endpoint.fetchCount == 2, "not again within minimumRefetchInterval")
        _ = try await validator.validate(key.sign(Self.claims(), algorithm: "ES256"), nonce: Self.nonce)
        #expect(endpoint.fetchCount == 2, "known keys come from the kept set")
    }

    @Test("a key rotated in after the set was fetched is found by fetching the set again; concurrent validations share one fetch")
    func rotatedKeyIsFetched() async throws {
        let old = TestSigningKey.p256("2025")
        let endpoint = KeySetEndpoint([old.publicJWK()])
        let validator = endpoint.validator(minimumRefetchInterval: .zero)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try await validator.validate(old.sign(Self.claims(), algorithm: "ES256"), nonce: Self.nonce) } }
            try await group.waitForAll()
        }
        #expect(endpoint.fetchCount == 1, "twenty validations, one fetch")
        let new = TestSigningKey.sharedRSA
        endpoint.publish([old.publicJWK(), new.publicJWK()])
        let token = try await validator.validate(new.sign(Self.claims(), algorithm: "RS256"), nonce: Self.nonce)
        #expect(token.keyID == new.keyID)
        #expect(endpoint.fetchCount == 2)
    }

    @Test(
        "a set older than keySetMaximumAge is fetched again, and a key withdrawn from it is no longer trusted; a failing fetch then keeps the old set"
    )
    func oldSetsAreFetchedAgain() async throws {
        let first = TestSigningKey.p256("first"), second = TestSigningKey.p256("second")
        let endpoint = KeySetEndpoint([first.publicJWK()])
        let validator = endpoint.validator(minimumRefetchInterval: .seconds(60), keySetMaximumAge: .milliseconds(100))
        _ = try await validator.validate(first.sign(Self.claims(), algorithm: "ES256"), nonce: Self.nonce)
        try await Task.sleep(for: .milliseconds(150))
        endpoint.status.withLock { $0 = 503 }
        _ = try await validator.validate(first.sign(Self.claims(), algorithm: "ES256"), nonce: Self.nonce)
        #expect(endpoint.fetchCount == 2, "tried again; the kept set served meanwhile")
        endpoint.status.withLock { $0 = 200 }
        endpoint.publish([second.publicJWK()])
        try await Task.sleep(for: .milliseconds(150))
        #expect(await Self.refusal(validator, first.sign(Self.claims(), algorithm: "ES256"))?.reason == .unknownKey)
        _ = try await validator.validate(second.sign(Self.claims(), algorithm: "ES256"), nonce: Self.nonce)
    }

    @Test("without a kid every key of the algorithm's type is tried (a set of one key needs none)")
    func tokenWithoutKeyID() async throws {
        let key = TestSigningKey.p256()
        let validator = KeySetEndpoint([TestSigningKey.p256("other").publicJWK(), key.publicJWK()]).validator()
        let token = try await validator.validate(key.sign(Self.claims(), algorithm: "ES256", keyID: .some(nil)), nonce: Self.nonce)
        #expect(token.keyID == nil)
    }

    @Test("iss other than the discovery's issuer, or missing, is refused (wrongIssuer)")
    func wrongIssuer() async throws {
        let key = TestSigningKey.p256()
        let validator = KeySetEndpoint([key.publicJWK()]).validator()
        for iss: Any? in ["https://evil.example", "https://login.example/", nil] {
            #expect(await Self.refusal(validator, key.sign(Self.claims(["iss": iss]), algorithm: "ES256"))?.reason == .wrongIssuer)
        }
    }

    @Test("aud without the client id is refused (wrongAudience); several audiences need azp = client id (wrongAuthorizedParty)")
    func wrongAudience() async throws {
        let key = TestSigningKey.p256()
        let validator = KeySetEndpoint([key.publicJWK()]).validator()
        for aud: Any? in ["another-client", ["another-client", "third"], nil, 42] {
            #expect(await Self.refusal(validator, key.sign(Self.claims(["aud": aud]), algorithm: "ES256"))?.reason == .wrongAudience)
        }
        let several = key.sign(Self.claims(["aud": [Self.clientID, "api"], "azp": nil]), algorithm: "ES256")
        #expect(await Self.refusal(validator, several)?.reason == .wrongAuthorizedParty)
        let otherParty = key.sign(Self.claims(["aud": [Self.clientID, "api"], "azp": "api"]), algorithm: "ES256")
        #expect(await Self.refusal(validator, otherParty)?.reason == .wrongAuthorizedParty)
        _ = try await validator.validate(key.sign(Self.claims(["aud": [Self.clientID, "api"]]), algorithm: "ES256"), nonce: Self.nonce)
        _ = try await validator.validate(key.sign(Self.claims(["aud": [Self.clientID], "azp": nil]), algorithm: "ES256"), nonce: Self.nonce)
    }

    @Test("an expired token is refused (expired) beyond 60 s of skew; within it, accepted; without exp, refused")
    func expiry() async throws {
        let key = TestSigningKey.p256()
        let validator = KeySetEndpoint([key.publicJWK()]).validator()
        let now = Date()
        let expired = key.sign(Self.claims(["exp": Int(now.timeIntervalSince1970) - 61]), algorithm: "ES256")
        #expect(await Self.refusal(validator, expired, now: now)?.reason == .expired)
        let withinSkew = key.sign(Self.claims(["exp": Int(now.timeIntervalSince1970) - 30]), algorithm: "ES256")
        _ = try await validator.validate(withinSkew, nonce: Self.nonce, now: now)
        #expect(await Self.refusal(validator, key.sign(Self.claims(["exp": nil]), algorithm: "ES256"))?.reason == .expired)
        let later = key.sign(Self.claims(), algorithm: "ES256")
        #expect(await Self.refusal(validator, later, now: now.addingTimeInterval(3600))?.reason == .expired)
    }

    @Test("a nonce other than the flow's, or none when one was sent, is refused (wrongNonce)")
    func wrongNonce() async throws {
        let key = TestSigningKey.p256()
        let validator = KeySetEndpoint([key.publicJWK()]).validator()
        #expect(await Self.refusal(validator, key.sign(Self.claims(["nonce": "another"]), algorithm: "ES256"))?.reason == .wrongNonce)
        #expect(await Self.refusal(validator, key.sign(Self.claims(["nonce": nil]), algorithm: "ES256"))?.reason == .wrongNonce)
        #expect(await Self.refusal(validator, key.sign(Self.claims(), algorithm: "ES256"), nonce: "the-flows-own")?.reason == .wrongNonce)
        // No nonce sent (no openid scope in the authorize request): none is asked for.
        _ = try await validator.validate(key.sign(Self.claims(["nonce": nil]), algorithm: "ES256"), nonce: nil)
    }

    @Test("no sub, malformed and encrypted tokens, and an unreachable JWKS are refused, each with its reason; no message holds a value of the token")
    func otherRefusals() async throws {
        let key = TestSigningKey.p256()
        let endpoint = KeySetEndpoint([key.publicJWK()])
        let validator = endpoint.validator()
        #expect(await Self.refusal(validator, key.sign(Self.claims(["sub": nil]), algorithm: "ES256"))?.reason == .missingSubject)
        #expect(await Self.refusal(validator, key.sign(Self.claims(["sub": ""]), algorithm: "ES256"))?.reason == .missingSubject)
        for garbage in ["", "a.b", "not a token", "eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln", "a.b.c.d", "=.=.="] {
            #expect(await Self.refusal(validator, garbage)?.reason == .malformed, "\(garbage)")
        }
        #expect(await Self.refusal(validator, "eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d")?.reason == .encrypted)
        let down = KeySetEndpoint([key.publicJWK()])
        down.status.withLock { $0 = 500 }
        let unavailable = await Self.refusal(down.validator(), key.sign(Self.claims(), algorithm: "ES256"))
        #expect(unavailable?.reason == .keySetUnavailable)
        #expect(unavailable?.message.contains("500") == true)
        let broken = KeySetEndpoint([])
        broken.document.withLock { $0 = "<html>" }
        #expect(await Self.refusal(broken.validator(), key.sign(Self.claims(), algorithm: "ES256"))?.reason == .keySetUnavailable)

        // Every refusal message names what failed, never a value of the token.
        let secretish = "value-that-must-not-show"
        let tokens = [
            key.sign(Self.claims(["iss": secretish]), algorithm: "ES256"), key.sign(Self.claims(["aud": secretish]), algorithm: "ES256"),
            key.sign(Self.claims(["nonce": secretish]), algorithm: "ES256"),
            key.sign(Self.claims(["aud": [Self.clientID, secretish], "azp": secretish]), algorithm: "ES256"),
            TestSigningKey.p256(secretish).sign(Self.claims(), algorithm: "ES256"),
        ]
        for token in tokens {
            let error = await Self.refusal(validator, token)
            #expect(error != nil)
            #expect(error.map { !$0.description.contains(secretish) && !$0.description.contains(token) } == true)
        }
    }
}
