import Crypto
import Foundation

/// Hand-built compact JWS for the tests (independent of the server's JOSE code).
enum TestJWS {
    static func base64url(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64urlDecode(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    /// `header.payload` signed with ES256 by `key`.
    static func es256(header: [String: Any], claims: [String: Any], key: P256.Signing.PrivateKey) -> String {
        let input = base64url(json(header)) + "." + base64url(json(claims))
        let signature = (try? key.signature(for: Data(input.utf8)).rawRepresentation) ?? Data()
        return input + "." + base64url(signature)
    }

    /// An HS256 JWS with a made-up MAC key.
    static func hs256(header: [String: Any], claims: [String: Any]) -> String {
        let input = base64url(json(header)) + "." + base64url(json(claims))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(size: .bits256))
        return input + "." + base64url(Data(mac))
    }

    /// An unsigned JWS (`alg: none`).
    static func unsigned(header: [String: Any], claims: [String: Any]) -> String {
        base64url(json(header)) + "." + base64url(json(claims)) + "."
    }

    /// The claims of a compact JWS, unverified.
    static func claims(of compact: String) -> [String: Any]? {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = base64urlDecode(parts[1]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func header(of compact: String) -> [String: Any]? {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = base64urlDecode(parts[0]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func sha256(_ text: String) -> String { base64url(Data(SHA256.hash(data: Data(text.utf8)))) }
}
