import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// What `haapi-gateway proxy` adds to a request: a Bearer token, or a DPoP-bound token with a new proof each time
/// (RFC 9449 §4.2, §7.1).
@Suite("The proxy's Authorization and DPoP fields")
struct ProxyAuthorizationTests {
    private static func tokens(bound key: DPoPKey?) -> OAuthTokens {
        OAuthTokens(
            accessToken: "the-access-token",
            expiresIn: 300,
            refreshToken: "r",
            tokenType: key == nil ? "Bearer" : "DPoP",
            scope: "openid",
            idToken: nil,
            dpopKey: key
        )
    }

    /// The proof's header and claims.
    private static func decoded(_ proof: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let parts = proof.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let headerData = try #require(Base64URL.decode(parts[0]))
        let claimsData = try #require(Base64URL.decode(parts[1]))
        let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: claimsData) as? [String: Any])
        return (header, claims)
    }

    @Test("a Bearer token: Authorization: Bearer <token>, no proof")
    func bearer() throws {
        let fields = try ProxyAuthorization.fields(
            for: Self.tokens(bound: nil),
            method: "GET",
            url: URL(string: "https://api.example.com/me")!,
            nonce: nil
        )
        #expect(fields.map(\.name) == ["Authorization"])
        #expect(fields.first?.value == "Bearer the-access-token")
    }

    @Test("a DPoP-bound token: Authorization: DPoP <token> and a proof of the key with htm, htu without query, ath, jti, iat and the nonce")
    func dpopBound() throws {
        let key = DPoPKey()
        let tokens = Self.tokens(bound: key)
        let url = try #require(URL(string: "https://API.example.com/v1/orders?limit=5#x"))
        let fields = try ProxyAuthorization.fields(for: tokens, method: "post", url: url, nonce: "server-nonce")
        #expect(fields.map(\.name) == ["Authorization", "DPoP"])
        #expect(fields.first?.value == "DPoP the-access-token")
        let (header, claims) = try Self.decoded(fields[1].value)
        #expect(header["typ"] as? String == "dpop+jwt")
        #expect((header["jwk"] as? [String: Any])?["x"] as? String == key.publicJWK.x)
        #expect(claims["htm"] as? String == "POST")
        #expect(claims["htu"] as? String == "https://api.example.com/v1/orders")
        #expect(claims["ath"] as? String == DPoPProof.accessTokenHash("the-access-token"))
        #expect(claims["nonce"] as? String == "server-nonce")
        #expect(((claims["iat"] as? Int) ?? 0) >= Int(Date().timeIntervalSince1970) - 5)
        let again = try ProxyAuthorization.fields(for: tokens, method: "POST", url: url, nonce: nil)
        let second = try Self.decoded(again[1].value).claims
        #expect(second["jti"] as? String != claims["jti"] as? String, "a new jti for every request")
        #expect(second["nonce"] == nil)
    }

    @Test("a DPoP-bound token without its key is refused with 503, naming no token")
    func boundWithoutKey() {
        let tokens = OAuthTokens(accessToken: "the-access-token", expiresIn: 300, refreshToken: nil, tokenType: "DPoP", scope: nil, idToken: nil)
        #expect(throws: ProxyRefusal.self) {
            try ProxyAuthorization.fields(for: tokens, method: "GET", url: URL(string: "https://api.example.com/")!, nonce: nil)
        }
        do {
            _ = try ProxyAuthorization.fields(for: tokens, method: "GET", url: URL(string: "https://api.example.com/")!, nonce: nil)
        } catch {
            #expect(error.status == 503)
            #expect(!error.message.contains("the-access-token"))
        }
    }
}
