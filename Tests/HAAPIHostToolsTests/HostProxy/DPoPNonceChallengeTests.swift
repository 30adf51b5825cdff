import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// A resource server's `use_dpop_nonce` challenge (RFC 9449 §9), as `haapi-gateway proxy` recognises it.
@Suite("DPoP nonce challenges of a resource server")
struct DPoPNonceChallengeTests {
    @Test("401 with a DPoP challenge whose error is use_dpop_nonce, and DPoP-Nonce: the nonce")
    func challengeIsRecognised() {
        #expect(
            DPoPNonceChallenge.demandedNonce(
                status: 401,
                fields: [
                    ("WWW-Authenticate", #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#),
                    ("DPoP-Nonce", "eyJ7S_zG.eyJH0-Z.HX4w-7v"),
                ]
            ) == "eyJ7S_zG.eyJH0-Z.HX4w-7v"
        )
        #expect(
            DPoPNonceChallenge.demandedNonce(
                status: 401,
                fields: [("www-authenticate", #"Bearer realm="api", dpop algs="ES256", error=use_dpop_nonce"#), ("dpop-nonce", " n1 ")]
            ) == "n1",
            "a second challenge in the field, a token value, lower-case names"
        )
        #expect(
            DPoPNonceChallenge.demandedNonce(
                status: 401,
                fields: [
                    ("WWW-Authenticate", #"Bearer realm="a, b""#), ("WWW-Authenticate", #"DPoP algs="ES256 PS256", error="use_dpop_nonce""#),
                    ("DPoP-Nonce", "n2"),
                ]
            ) == "n2",
            "a comma in a quoted value, challenges in two fields"
        )
    }

    @Test("other answers are no nonce challenge: another status, another error, a Bearer challenge, no nonce")
    func othersAreNot() {
        let challenge = ("WWW-Authenticate", #"DPoP error="use_dpop_nonce""#)
        #expect(DPoPNonceChallenge.demandedNonce(status: 400, fields: [challenge, ("DPoP-Nonce", "n")]) == nil)
        #expect(DPoPNonceChallenge.demandedNonce(status: 401, fields: [challenge]) == nil)
        #expect(
            DPoPNonceChallenge.demandedNonce(status: 401, fields: [("WWW-Authenticate", #"DPoP error="invalid_token""#), ("DPoP-Nonce", "n")]) == nil
        )
        #expect(
            DPoPNonceChallenge.demandedNonce(status: 401, fields: [("WWW-Authenticate", #"Bearer error="use_dpop_nonce""#), ("DPoP-Nonce", "n")])
                == nil
        )
        #expect(
            DPoPNonceChallenge.demandedNonce(
                status: 401,
                fields: [("WWW-Authenticate", #"DPoP error_description="use_dpop_nonce""#), ("DPoP-Nonce", "n")]
            )
                == nil
        )
    }

    @Test("a nonce offered with any answer is taken (RFC 9449 §8.2); an empty one is not")
    func offeredNonce() {
        #expect(DPoPNonceChallenge.offeredNonce([("Content-Type", "application/json"), ("DPoP-Nonce", "next")]) == "next")
        #expect(DPoPNonceChallenge.offeredNonce([("DPoP-Nonce", "")]) == nil)
        #expect(DPoPNonceChallenge.offeredNonce([]) == nil)
    }
}
