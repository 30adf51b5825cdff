import Foundation

/// Verifies DPoP proofs as an authorization server and resource server do (RFC 9449 §4.3, §7.1).
struct DPoPProofVerifier: Sendable {
    let replayCache: ReplayCache
    /// Nil when nonces are not required.
    let nonces: DPoPNoncePolicy?
    /// How far `iat` may lie in the past or the future.
    let iatWindow: TimeInterval

    /// Checks the `DPoP` header values of one request.
    /// - Parameters:
    ///   - headerValues: Every `DPoP` header value of the request.
    ///   - method: The request method (`htm`).
    ///   - url: The URL the server is reachable at for this request, without query (`htu`).
    ///   - accessToken: The presented access token, when the proof must carry `ath`.
    func verify(
        headerValues: [String],
        method: String,
        url: String,
        accessToken: String?,
        now: Date = Date()
    )
        -> Result<VerifiedDPoPProof, DPoPFailure>
    {
        guard !headerValues.isEmpty else { return .failure(.missing) }
        guard headerValues.count == 1, let compact = headerValues.first, !compact.contains(",") else {
            return .failure(.invalid("Exactly one DPoP header is allowed"))
        }
        guard let jws = CompactJWS(compact.trimmingCharacters(in: .whitespaces)) else {
            return .failure(.invalid("The DPoP proof is not a well-formed JWS"))
        }
        guard jws.header["typ"]?.stringValue == "dpop+jwt" else { return .failure(.invalid("typ must be dpop+jwt")) }
        guard jws.header["alg"]?.stringValue == "ES256" else {
            return .failure(.invalid("Unsupported alg; only ES256 is accepted"))
        }
        guard let jwkObject = jws.header["jwk"]?.objectValue else { return .failure(.invalid("The header has no jwk")) }
        let publicKey: ECPublicJWK
        switch ECPublicJWK.parse(jwkObject) {
        case .failure(.containsPrivateKey): return .failure(.invalid("The jwk contains private key material"))
        case .failure(.unsupported): return .failure(.invalid("The jwk is not a P-256 public key"))
        case .success(let (jwk, key)):
            guard jws.hasValidES256Signature(by: key) else { return .failure(.invalid("The signature is invalid")) }
            publicKey = jwk
        }
        guard let htm = jws.claims["htm"]?.stringValue, htm == method else {
            return .failure(.invalid("htm does not match the request method"))
        }
        guard let htu = jws.claims["htu"]?.stringValue, Self.normalized(htu) == Self.normalized(url) else {
            return .failure(.invalid("htu does not match the request URL"))
        }
        guard let iat = jws.claims["iat"]?.integerValue else { return .failure(.invalid("iat is missing")) }
        let age = now.timeIntervalSince1970 - Double(iat)
        guard age <= iatWindow, age >= -iatWindow else { return .failure(.invalid("iat is outside the accepted window")) }
        guard let jti = jws.claims["jti"]?.stringValue, !jti.isEmpty, jti.count <= 256 else {
            return .failure(.invalid("jti is missing"))
        }
        if let accessToken {
            guard let ath = jws.claims["ath"]?.stringValue, RandomToken.constantTimeEquals(ath, RandomToken.sha256(accessToken)) else {
                return .failure(.invalid("ath does not match the access token"))
            }
        }
        if let nonces, !nonces.accepts(jws.claims["nonce"]?.stringValue, keyThumbprint: publicKey.thumbprint, now: now) {
            return .failure(.useNonce(keyThumbprint: publicKey.thumbprint))
        }
        guard replayCache.insertIfNew(publicKey.thumbprint + " " + jti, now: now) else {
            return .failure(.invalid("The proof was already used (jti replay)"))
        }
        return .success(VerifiedDPoPProof(keyThumbprint: publicKey.thumbprint))
    }

    /// `htu` without query and fragment, with RFC 3986 syntax- and scheme-based normalization.
    static func normalized(_ url: String) -> String? {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased()
        else { return nil }
        components.query = nil
        components.fragment = nil
        let port = components.port.flatMap { (scheme == "http" && $0 == 80) || (scheme == "https" && $0 == 443) ? nil : $0 }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(path)"
    }
}
