import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPI

/// ID tokens signed with EdDSA (RFC 8037), as a Curity token profile with an EdDSA key signs them ([EDDSA]): Ed25519
/// keys verify; Ed448 keys, which swift-crypto cannot verify, are skipped and a token that needs one is refused naming
/// Ed448.
extension IDTokenValidatorTests {
    @Test("an Ed25519 key (kty OKP, RFC 8037 §2) verifies an EdDSA token; its subject, claims, algorithm and kid as sent")
    func ed25519TokenIsAccepted() async throws {
        let key = TestSigningKey.ed25519()
        let jwk = key.publicJWK(extra: ["use": "sig", "alg": "EdDSA"])
        #expect(jwk["kty"] == "OKP" && jwk["crv"] == "Ed25519" && Base64URL.decode(jwk["x"] ?? "")?.count == 32)
        // Beside keys of the other types, as a JWKS during a change of the token profile's key holds them.
        let endpoint = KeySetEndpoint([TestSigningKey.p256().publicJWK(), jwk, TestSigningKey.ed448JWK()])
        let token = try await endpoint.validator().validate(key.sign(Self.claims(), algorithm: "EdDSA"), nonce: Self.nonce)
        #expect(token.subject == "user-7")
        #expect(token.algorithm == .edDSA)
        #expect(token.keyID == key.keyID)
        #expect(token.claims["email"] == .string("demo@example.com"))
        // Without a kid, every Ed25519 key of the set is tried.
        let unnamed = try await endpoint.validator().validate(key.sign(Self.claims(), algorithm: "EdDSA", keyID: .some(nil)), nonce: Self.nonce)
        #expect(unnamed.keyID == nil)
    }

    @Test("RFC 8037 Appendix A.4's Ed25519 JWS verifies with A.2's public JWK; with one bit of the signature changed it does not")
    func rfc8037ExampleVerifies() throws {
        let jwk: JSONValue = .object(["kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"])
        let key = try #require(JSONWebKey(jwk))
        let input = Data("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".utf8)
        var signature = try #require(
            Base64URL.decode("hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg")
        )
        #expect(key.verifies(signature, of: input, with: .edDSA))
        #expect(!key.verifies(signature, of: input, with: .es256), "an Ed25519 key verifies EdDSA only")
        signature[0] ^= 0x01
        #expect(!key.verifies(signature, of: input, with: .edDSA))
    }

    @Test(
        "an EdDSA signature that does not verify is refused (invalidSignature): a flipped bit, changed claims, another Ed25519 key under the kid, a short signature"
    )
    func wrongEd25519SignatureIsRefused() async throws {
        let key = TestSigningKey.ed25519("okp-1")
        let validator = KeySetEndpoint([key.publicJWK()]).validator()
        let token = key.sign(Self.claims(), algorithm: "EdDSA")
        var parts = token.split(separator: ".").map(String.init)
        var signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64)
        signature[40] ^= 0x01
        #expect(await Self.refusal(validator, parts[0] + "." + parts[1] + "." + Base64URL.encode(signature))?.reason == .invalidSignature)
        #expect(await Self.refusal(validator, parts[0] + "." + parts[1] + "." + Base64URL.encode(signature.prefix(63)))?.reason == .invalidSignature)
        let original = parts[1]
        parts[1] = TestSigningKey.segment(Self.claims(["sub": "admin"]))
        #expect(await Self.refusal(validator, parts.joined(separator: "."))?.reason == .invalidSignature)
        parts[1] = original
        #expect(await Self.refusal(validator, TestSigningKey.ed25519("okp-1").sign(Self.claims(), algorithm: "EdDSA"))?.reason == .invalidSignature)
        let untouched = try await validator.validate(parts.joined(separator: "."), nonce: Self.nonce)
        #expect(untouched.algorithm == .edDSA)
    }

    @Test(
        "an Ed25519 key is used only for EdDSA, only when its alg is EdDSA or absent, its use sig and its key_ops verify; EdDSA never reaches an EC or RSA key"
    )
    func ed25519KeysAreBoundToEdDSA() async throws {
        let key = TestSigningKey.ed25519()
        let token = key.sign(Self.claims(), algorithm: "EdDSA")
        for extra in [["alg": "ES256"], ["alg": "Ed448"], ["use": "enc"], ["crv": "X25519"]] {
            let validator = KeySetEndpoint([key.publicJWK(extra: extra)]).validator()
            #expect(await Self.refusal(validator, token)?.reason == .unknownKey, "\(extra)")
        }
        // key_ops (an array) must include verify.
        let x = try #require(key.publicJWK()["x"])
        for (operations, accepted) in [(#"["sign"]"#, false), (#"["verify"]"#, true)] {
            let endpoint = KeySetEndpoint([])
            endpoint.document.withLock { $0 = #"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"okp-1","key_ops":\#(operations),"x":"\#(x)"}]}"# }
            if accepted {
                _ = try await endpoint.validator().validate(token, nonce: Self.nonce)
            } else {
                #expect(await Self.refusal(endpoint.validator(), token)?.reason == .unknownKey)
            }
        }
        // An x of the wrong length is not an Ed25519 key.
        let short = KeySetEndpoint([key.publicJWK(extra: ["x": TestSigningKey.base64URL(Data(count: 31))])]).validator()
        #expect(await Self.refusal(short, token)?.reason == .unknownKey)
        // The header picks the key type: an ES256 header under the Ed25519 key's kid, an EdDSA header under an EC key's.
        let ec = TestSigningKey.p256(key.keyID)
        let mixed = KeySetEndpoint([key.publicJWK()]).validator()
        #expect(await Self.refusal(mixed, ec.sign(Self.claims(), algorithm: "ES256"))?.reason == .unknownKey)
        let ecOnly = KeySetEndpoint([ec.publicJWK(), TestSigningKey.sharedRSA.publicJWK()]).validator()
        #expect(await Self.refusal(ecOnly, token)?.reason == .unknownKey)
    }

    @Test("an OKP JWK carrying the private member d is not trusted, even with the right public key (unknownKey)")
    func ed25519KeyWithPrivateMemberIsSkipped() async throws {
        let key = TestSigningKey.ed25519()
        guard case .ed25519(let privateKey) = key.material else {
            Issue.record("not an Ed25519 key")
            return
        }
        let withPrivate = key.publicJWK(extra: ["d": TestSigningKey.base64URL(privateKey.rawRepresentation)])
        let set = try JSONWebKeySet(json: Data(TestSigningKey.keySet([withPrivate]).utf8))
        #expect(set.keys.isEmpty)
        let validator = KeySetEndpoint([withPrivate]).validator()
        #expect(await Self.refusal(validator, key.sign(Self.claims(), algorithm: "EdDSA"))?.reason == .unknownKey)
    }

    @Test(
        "Ed448 keys are skipped when read; an EdDSA token whose only keys are Ed448 (by kid, or without a kid) and an alg of Ed448 are refused naming Ed448"
    )
    func ed448IsRefusedByName() async throws {
        let ed448 = TestSigningKey.ed448JWK("ed448-1", extra: ["use": "sig", "alg": "EdDSA"])
        let set = try JSONWebKeySet(json: Data(TestSigningKey.keySet([ed448]).utf8))
        #expect(set.keys.isEmpty, "swift-crypto cannot verify Ed448: no key is read")
        let claims = Self.claims()
        let byKeyID = TestSigningKey.randomlySigned(claims, header: ["alg": "EdDSA", "kid": "ed448-1"], byteCount: 114)
        let withoutKeyID = TestSigningKey.randomlySigned(claims, header: ["alg": "EdDSA"], byteCount: 114)
        let namedEd448 = TestSigningKey.randomlySigned(claims, header: ["alg": "Ed448", "kid": "ed448-1"], byteCount: 114)
        let endpoint = KeySetEndpoint([ed448])
        let validator = endpoint.validator(minimumRefetchInterval: .zero)
        for token in [byKeyID, withoutKeyID, namedEd448] {
            let refusal = await Self.refusal(validator, token)
            #expect(refusal?.reason == .unsupportedAlgorithm)
            #expect(refusal?.message.contains("Ed448") == true, "\(refusal?.message ?? "")")
            #expect(refusal?.message.contains("Ed25519, EC or RSA") == true, "says what to use instead")
            #expect(refusal.map { !$0.description.contains("ed448-1") && !$0.description.contains(token) } == true)
        }
        // Beside an Ed25519 key of another kid, the Ed448 key's kid is still refused by name; the Ed25519 key signs in.
        let ed25519 = TestSigningKey.ed25519("okp-2")
        endpoint.publish([ed448, ed25519.publicJWK()])
        let beside = endpoint.validator()
        #expect(await Self.refusal(beside, byKeyID)?.message.contains("Ed448") == true)
        _ = try await beside.validate(ed25519.sign(claims, algorithm: "EdDSA"), nonce: Self.nonce)
        // A kid that names no key of the set is an unknown key, not Ed448; an ES256 token is not about Ed448 either.
        let stranger = await Self.refusal(beside, TestSigningKey.ed25519("okp-9").sign(claims, algorithm: "EdDSA"))
        #expect(stranger?.reason == .unknownKey)
        #expect(stranger?.message.contains("Ed448") == false)
        #expect(await Self.refusal(beside, TestSigningKey.p256("ed448-1").sign(claims, algorithm: "ES256"))?.reason == .unknownKey)
        // An Ed448 key for encryption, or restricted to another alg, is not named.
        for extra in [["use": "enc"], ["alg": "ES256"]] {
            let other = KeySetEndpoint([TestSigningKey.ed448JWK("ed448-1", extra: extra)]).validator()
            #expect(await Self.refusal(other, byKeyID)?.reason == .unknownKey, "\(extra)")
        }
    }

    @Test("after an Ed448 refusal, the token profile's new Ed25519 key is found by fetching the JWKS again (kid refetch kept)")
    func ed448ThenEd25519RotatedIn() async throws {
        let endpoint = KeySetEndpoint([TestSigningKey.ed448JWK("ed448-1")])
        let validator = endpoint.validator(minimumRefetchInterval: .zero)
        let ed448Token = TestSigningKey.randomlySigned(Self.claims(), header: ["alg": "EdDSA", "kid": "ed448-1"], byteCount: 114)
        #expect(await Self.refusal(validator, ed448Token)?.reason == .unsupportedAlgorithm)
        #expect(endpoint.fetchCount == 1)
        let ed25519 = TestSigningKey.ed25519("okp-new")
        endpoint.publish([ed25519.publicJWK()])
        let token = try await validator.validate(ed25519.sign(Self.claims(), algorithm: "EdDSA"), nonce: Self.nonce)
        #expect(token.keyID == "okp-new")
        #expect(endpoint.fetchCount == 2)
    }

    @Test(
        "unvalidatable names the advertised algorithms the validator refuses or does not know, in their order; EdDSA and every accepted one are validatable"
    )
    func unvalidatableAlgorithms() {
        #expect(JWSAlgorithm.unvalidatable(["RS256", "EdDSA", "HS256", "none", "ES256K"]) == ["HS256", "none", "ES256K"])
        #expect(JWSAlgorithm.unvalidatable(JWSAlgorithm.allCases.map(\.rawValue)).isEmpty)
        #expect(JWSAlgorithm.unvalidatable([]).isEmpty)
        #expect(
            JWSAlgorithm.unvalidatable(["Ed448", "Ed25519", "HS512", "eddsa", "es256", "ES256"]) == ["Ed448", "Ed25519", "HS512", "eddsa", "es256"]
        )
        #expect(JWSAlgorithm.edDSA.keyType == "OKP")
    }

    /// Signs an EdDSA token with Python's cryptography (OpenSSL's Ed25519): prints the key's `x` and the token.
    static let pythonEd25519Token = """
        import base64, json, sys
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
        key = Ed25519PrivateKey.generate()
        x = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        header = b64(json.dumps({"alg": "EdDSA", "kid": "py-1", "typ": "JWT"}).encode())
        claims = b64(sys.argv[1].encode())
        print(b64(x))
        print(header + "." + claims + "." + b64(key.sign((header + "." + claims).encode())))
        """

    @Test(
        "an EdDSA token signed by Python's cryptography (an Ed25519 implementation this project did not write) is accepted",
        .enabled(if: TestTools.cryptographyAvailable, "needs Python's cryptography (pip install cryptography)"),
        .startsPrograms()
    )
    func ed25519TokenFromAnIndependentSigner() async throws {
        let claims = String(decoding: try JSONSerialization.data(withJSONObject: Self.claims(), options: [.sortedKeys]), as: UTF8.self)
        let made = try await runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.pythonEd25519Token, claims])
        #expect(made.status == 0, "\(made.standardError)")
        let lines = made.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        let endpoint = KeySetEndpoint([["kty": "OKP", "crv": "Ed25519", "x": lines[0], "kid": "py-1", "use": "sig", "alg": "EdDSA"]])
        let token = try await endpoint.validator().validate(lines[1], nonce: Self.nonce)
        #expect(token.subject == "user-7")
        #expect(token.algorithm == .edDSA)
    }
}
