import Testing

@testable import HAAPI

@Suite struct PKCETests {
    /// RFC 7636 appendix B: the challenge printed there is `E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM`
    /// (independently recomputed with Python's hashlib; a different value circulating in notes is not the RFC's).
    @Test func challengeMatchesRFC7636AppendixB() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
    }

    @Test func generatedVerifierHas43UnreservedCharactersAndIsUnique() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        var seen = Set<String>()
        for _ in 0..<200 {
            let pkce = PKCE()
            #expect(pkce.verifier.count == 43)
            #expect(pkce.verifier.allSatisfy { allowed.contains($0) })
            #expect(pkce.challenge == PKCE.challenge(for: pkce.verifier))
            seen.insert(pkce.verifier)
        }
        #expect(seen.count == 200)
    }
}
