import Testing

@testable import GatewayTestSupport
@testable import HAAPIDemoServer

/// The demo's CBOR decoder, authenticator-data parser and origin policy on hostile and edge-case input.
@Suite struct WebAuthnParsingTests {
    @Test func cborDecodesTheItemsWebAuthnUses() throws {
        let bytes = CBORWriter.encode(
            .map([(.text("fmt"), .text("none")), (.integer(-7), .bytes([1, 2])), (.integer(300), .integer(-300)), (.text("m"), .map([]))])
        )
        let value = try CBORDecoder.decodeWhole(bytes)
        #expect(value[text: "fmt"]?.textValue == "none")
        #expect(value[integer: -7]?.bytesValue == [1, 2])
        #expect(value[integer: 300]?.integerValue == -300)
        #expect(value[text: "m"]?.isMap == true)
        #expect(try CBORDecoder.decodeWhole([0xf5]) == .bool(true))
        #expect(try CBORDecoder.decodeWhole([0x82, 0x01, 0xf6]) == .array([.unsigned(1), .null]))
    }

    @Test(
        arguments: [
            ([0xa1, 0x01], CBORDecoder.Failure.truncated),  // a map without its value
            ([0x5f, 0x41, 0x00, 0xff], .unsupported("indefinite or reserved length 31")),  // an indefinite byte string
            ([0xc2, 0x41, 0x00], .unsupported("major type 6")),  // a tag
            ([0xf9, 0x3c, 0x00], .unsupported("simple value or float 25")),  // a half float
            ([0xa2, 0x01, 0x01, 0x01, 0x02], .duplicateKey),
            ([0x01, 0x02], .trailingBytes),
            ([0x62, 0xc3, 0x28], .invalidText),
            ([0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], .truncated),  // a length beyond the input
            ([0x9b, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff], .tooLarge),  // an absurd element count
        ] as [([UInt8], CBORDecoder.Failure)]
    )
    func cborRefusesWhatWebAuthnNeverSends(bytes: [UInt8], failure: CBORDecoder.Failure) {
        #expect(throws: failure) { try CBORDecoder.decodeWhole(bytes) }
    }

    @Test func cborNestingIsBounded() {
        let deep = [UInt8](repeating: 0x81, count: 40) + [0x00]
        #expect(throws: CBORDecoder.Failure.tooDeep) { try CBORDecoder.decodeWhole(deep) }
    }

    @Test func authenticatorDataMustBeCompleteAndNothingMore() {
        let header = [UInt8](repeating: 0, count: 32) + [0x01, 0, 0, 0, 1]
        #expect(throws: AuthenticatorData.Failure.tooShort) { try AuthenticatorData(Array(header.prefix(36))) }
        #expect(throws: AuthenticatorData.Failure.trailingBytes) { try AuthenticatorData(header + [0]) }
        #expect(throws: AuthenticatorData.Failure.tooShort) { try AuthenticatorData([UInt8](repeating: 0, count: 32) + [0x41, 0, 0, 0, 1]) }
        #expect(throws: AuthenticatorData.Failure.missingExtensions) { try AuthenticatorData([UInt8](repeating: 0, count: 32) + [0x81, 0, 0, 0, 1]) }
        let parsed = try? AuthenticatorData(header)
        #expect(parsed?.signCount == 1)
        #expect(parsed?.isUserPresent == true)
        #expect(parsed?.isUserVerified == false)
    }

    @Test func originsMustBelongToTheRelyingPartyAndBeAllowed() {
        let localhost = PasskeyOriginPolicy(relyingPartyID: "localhost", allowedOrigins: [], acceptsLocalhostOrigins: true)
        #expect(localhost.allows("http://localhost:8080"))
        #expect(localhost.allows("https://localhost"))
        #expect(!localhost.allows("http://127.0.0.1:8080"))
        #expect(!localhost.allows("http://localhost.evil.example:8080"))
        #expect(!localhost.allows("http://localhost:8080/path"))
        #expect(!localhost.allows("ftp://localhost"))
        let closed = PasskeyOriginPolicy(relyingPartyID: "localhost", allowedOrigins: ["http://localhost:9000"], acceptsLocalhostOrigins: false)
        #expect(closed.allows("http://localhost:9000"))
        #expect(!closed.allows("http://localhost:9001"))
        let site = PasskeyOriginPolicy(relyingPartyID: "example.com", allowedOrigins: ["https://login.example.com"], acceptsLocalhostOrigins: true)
        #expect(site.allows("https://LOGIN.example.com"))
        #expect(!site.allows("https://other.example.com"))
        #expect(!site.allows("http://localhost:8080"))
        let mismatched = PasskeyOriginPolicy(relyingPartyID: "example.com", allowedOrigins: ["https://example.org"], acceptsLocalhostOrigins: false)
        #expect(!mismatched.allows("https://example.org"))
    }
}
