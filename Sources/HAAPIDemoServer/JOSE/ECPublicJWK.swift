import Crypto
import Foundation

/// A public P-256 key as a JWK (RFC 7517/7518), with its RFC 7638 thumbprint.
struct ECPublicJWK: Sendable, Equatable {
    let x: String
    let y: String

    init(_ key: P256.Signing.PublicKey) {
        let raw = key.rawRepresentation  // x || y, 32 bytes each
        x = Base64URL.encode(raw.prefix(32))
        y = Base64URL.encode(raw.suffix(32))
    }

    /// Reads a public EC P-256 JWK; fails when it is another key type or carries private material.
    static func parse(_ jwk: [String: JSONValue]) -> Result<(ECPublicJWK, P256.Signing.PublicKey), JWKProblem> {
        if jwk["d"] != nil || jwk["p"] != nil || jwk["q"] != nil || jwk["k"] != nil { return .failure(.containsPrivateKey) }
        guard jwk["kty"]?.stringValue == "EC", jwk["crv"]?.stringValue == "P-256",
            let x = jwk["x"]?.stringValue, let y = jwk["y"]?.stringValue,
            let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y),
            xBytes.count == 32, yBytes.count == 32,
            let key = try? P256.Signing.PublicKey(rawRepresentation: xBytes + yBytes)
        else { return .failure(.unsupported) }
        return .success((ECPublicJWK(key), key))
    }

    /// RFC 7638 JWK SHA-256 thumbprint, base64url.
    var thumbprint: String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256.hash(data: Data(canonical.utf8)))
    }

    /// Why a JWK was refused.
    enum JWKProblem: Error, Sendable {
        case containsPrivateKey
        case unsupported
    }
}
