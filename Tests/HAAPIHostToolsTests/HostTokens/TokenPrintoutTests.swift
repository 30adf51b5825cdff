import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// ``TokenPrintout``: what `token` prints, and what it refuses to.
@Suite("What token prints")
struct TokenPrintoutTests {
    static let written = Date(timeIntervalSince1970: 1_800_000_000)

    static func tokens(type: String = "Bearer", access: String = "access-1", idToken: String? = nil) -> OAuthTokens {
        OAuthTokens(accessToken: access, expiresIn: 300, refreshToken: "r", tokenType: type, scope: "openid", idToken: idToken)
    }

    @Test("the flags choose one printout; more than one is refused")
    func chosen() {
        #expect(TokenPrintout.chosen(idToken: false, header: false, json: false) == .accessToken)
        #expect(TokenPrintout.chosen(idToken: true, header: false, json: false) == .idToken)
        #expect(TokenPrintout.chosen(idToken: false, header: true, json: false) == .header)
        #expect(TokenPrintout.chosen(idToken: false, header: false, json: true) == .json)
        #expect(TokenPrintout.chosen(idToken: true, header: true, json: false) == nil)
        #expect(TokenPrintout.chosen(idToken: true, header: true, json: true) == nil)
    }

    @Test("the access token, a Bearer header, the ID token; no ID token and a DPoP-bound header are refused with status 1")
    func tokens() throws {
        let tokens = Self.tokens(idToken: "id-1")
        #expect(try TokenPrintout.accessToken.text(of: tokens, writtenAt: Self.written, path: "/t").get() == "access-1")
        #expect(try TokenPrintout.header.text(of: tokens, writtenAt: Self.written, path: "/t").get() == "Bearer access-1")
        #expect(try TokenPrintout.idToken.text(of: tokens, writtenAt: Self.written, path: "/t").get() == "id-1")
        guard case .failure(let noID) = TokenPrintout.idToken.text(of: Self.tokens(), writtenAt: Self.written, path: "/t") else {
            Issue.record("a missing ID token was printed")
            return
        }
        #expect(noID == HostTokenProblem("the tokens in /t have no ID token (the sign-in did not ask for the openid scope)"))
        guard case .failure(let bound) = TokenPrintout.header.text(of: Self.tokens(type: "DPoP"), writtenAt: Self.written, path: "/t") else {
            Issue.record("a DPoP-bound header was printed")
            return
        }
        #expect(bound.exitStatus == 1)
        #expect(bound.message.contains("haapi-gateway proxy --to URL"))
    }

    @Test("a token that would break a line is never printed (status 78)")
    func unusable() {
        for printout in [TokenPrintout.accessToken, .header] {
            guard case .failure(let problem) = printout.text(of: Self.tokens(access: "a b\n"), writtenAt: Self.written, path: "/t") else {
                Issue.record("\(printout) printed a token with a space and a line break")
                continue
            }
            #expect(problem.exitStatus == 78)
        }
    }

    @Test("the JSON summary: type, expiry, seconds left from now, scope; no token")
    func json() throws {
        let now = Self.written.addingTimeInterval(100)
        let text = try TokenPrintout.json.text(of: Self.tokens(), writtenAt: Self.written, path: "/t", now: now).get()
        #expect(text == #"{"expiresAt":"2027-01-15T08:05:00Z","expiresIn":200,"scope":"openid","tokenType":"Bearer"}"#)
        #expect(!text.contains("access-1"))
    }
}
