import Foundation
import Testing

@testable import HAAPI

/// `expires_in` as a token endpoint sends it, read so that no value makes a reader trap: a huge one is ten years, one
/// that is not a lifetime unknown; and a token file written before the bound reads back bounded.
@Suite("A token's lifetime (expires_in), bounded")
struct TokenLifetimeTests {
    @Test(
        "numbers and strings of digits are whole seconds; huge ones are ten years; negative, non-numeric and other kinds are unknown",
        arguments: [
            (JSONValue.number(300), 300), (.string("300"), 300), (.number(3600.9), 3600), (.number(0), 0),
            (.string("9223372036854775807"), TokenLifetime.maximumSeconds), (.string("99999999999999999999"), TokenLifetime.maximumSeconds),
            (.number(9.3e18), TokenLifetime.maximumSeconds), (.number(1e300), TokenLifetime.maximumSeconds),
            (.number(Double(TokenLifetime.maximumSeconds + 1)), TokenLifetime.maximumSeconds), (.number(-5), nil), (.string("-5"), nil),
            (.string("+5"), nil), (.string("soon"), nil), (.string(""), nil), (.string("3 600"), nil), (.number(.nan), nil),
            (.number(-.infinity), nil), (.bool(true), nil), (.null, nil), (.array([.number(1)]), nil),
        ] as [(JSONValue, Int?)]
    )
    func expiresIn(value: JSONValue, seconds: Int?) {
        #expect(TokenLifetime.seconds(in: value) == seconds)
    }

    @Test("OAuthTokens bound the lifetime however they are made: given, decoded from a token endpoint, or from a file an older version wrote")
    func tokensAreBounded() throws {
        let given = OAuthTokens(accessToken: "a", expiresIn: .max, refreshToken: nil, tokenType: "Bearer", scope: nil, idToken: nil)
        #expect(given.expiresIn == TokenLifetime.maximumSeconds)
        #expect(OAuthTokens(accessToken: "a", expiresIn: -1, refreshToken: nil, tokenType: "Bearer", scope: nil, idToken: nil).expiresIn == nil)
        let written = Data(#"{"accessToken":"a","expiresIn":9223372036854775807,"tokenType":"Bearer"}"#.utf8)
        #expect(try JSONDecoder().decode(OAuthTokens.self, from: written).expiresIn == TokenLifetime.maximumSeconds)
    }

    @Test("JSONValue's intValue bounds a string as it bounds a number: beyond 9 × 10¹⁵ neither is an integer")
    func intValueBoundsStrings() {
        #expect(JSONValue.string("9223372036854775807").intValue == nil)
        #expect(JSONValue.number(9.3e18).intValue == nil)
        #expect(JSONValue.string("8999999999999999").intValue == 8_999_999_999_999_999)
        #expect(JSONValue.string("-42").intValue == -42)
    }
}
