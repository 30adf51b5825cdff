import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// ``CredentialHelperToken``: the token a credential helper hands over, refused when DPoP-bound, and when an ID token
/// needs a refresh before its access token does.
@Suite("Credential helpers' token")
struct CredentialHelperTokenTests {
    /// An unsigned JWT whose `exp` is `exp`.
    static func jwt(exp: Date) -> String {
        let payload = Data(#"{"sub":"demo","exp":\#(Int(exp.timeIntervalSince1970))}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return "eyJhbGciOiJub25lIn0.\(payload).sig"
    }

    static func tokens(type: String = "Bearer", access: String = "access-1", expiresIn: Int? = 300, idToken: String? = nil) -> OAuthTokens {
        OAuthTokens(accessToken: access, expiresIn: expiresIn, refreshToken: "r", tokenType: type, scope: "openid", idToken: idToken)
    }

    @Test("the access token with its expiry; a DPoP-bound one is refused naming the tool and proxy; one that would break a line is refused")
    func accessTokens() throws {
        let written = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try CredentialHelperToken.accessToken(of: Self.tokens(), writtenAt: written, path: "/t.json", tool: "git").get()
        #expect(token == CredentialHelperToken(value: "access-1", expiry: written.addingTimeInterval(300)))
        guard
            case .failure(let bound) = CredentialHelperToken.accessToken(
                of: Self.tokens(type: "DPoP"),
                writtenAt: written,
                path: "/t.json",
                tool: "docker"
            )
        else {
            Issue.record("a DPoP-bound token was handed over")
            return
        }
        #expect(
            bound.message
                == "the access token in /t.json is DPoP-bound: docker cannot send the DPoP proof each request needs; run haapi-gateway proxy, which adds one, and point docker at it"
        )
        #expect(bound.exitStatus == 1)
        for bad in ["a\nusername=x", "a b", ""] {
            let result = CredentialHelperToken.accessToken(of: Self.tokens(access: bad), writtenAt: written, path: "/t.json", tool: "git")
            #expect((try? result.get()) == nil, "\(bad)")
        }
    }

    @Test("the ID token with its exp, whatever the access token is bound to; none, or expired, is one line")
    func idTokens() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let id = Self.jwt(exp: now.addingTimeInterval(200))
        let token = try CredentialHelperToken.idToken(of: Self.tokens(type: "DPoP", idToken: id), path: "/t.json", now: now).get()
        #expect(token == CredentialHelperToken(value: id, expiry: now.addingTimeInterval(200)))
        #expect((try? CredentialHelperToken.idToken(of: Self.tokens(), path: "/t.json", now: now).get()) == nil)
        let expired = Self.tokens(idToken: Self.jwt(exp: now.addingTimeInterval(-1)))
        guard case .failure(let problem) = CredentialHelperToken.idToken(of: expired, path: "/t.json", now: now) else {
            Issue.record("an expired ID token was handed over")
            return
        }
        #expect(problem.message.contains("has expired") && problem.message.contains("haapi-gateway login"))
    }

    @Test("an ID token expiring within the minimum while the access token does not asks for more validity than the access token has left")
    func idTokenRefresh() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let written = now.addingTimeInterval(-100)  // the access token (300 s) has 200 s left
        let shortID = Self.tokens(idToken: Self.jwt(exp: now.addingTimeInterval(30)))
        #expect(CredentialHelperToken.accessValidityForFreshIDToken(shortID, writtenAt: written, minimum: 60, now: now) == 201)
        let longID = Self.tokens(idToken: Self.jwt(exp: now.addingTimeInterval(90)))
        #expect(CredentialHelperToken.accessValidityForFreshIDToken(longID, writtenAt: written, minimum: 60, now: now) == nil)
        let noExpiry = Self.tokens(expiresIn: nil, idToken: Self.jwt(exp: now.addingTimeInterval(30)))
        #expect(CredentialHelperToken.accessValidityForFreshIDToken(noExpiry, writtenAt: written, minimum: 60, now: now) == nil)
        #expect(CredentialHelperToken.accessValidityForFreshIDToken(Self.tokens(), writtenAt: written, minimum: 60, now: now) == nil)
    }
}
