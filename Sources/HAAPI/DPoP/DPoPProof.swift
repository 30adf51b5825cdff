import Crypto
import Foundation
import Synchronization

/// Builds DPoP proofs (RFC 9449 §4): a new one for every HTTP request.
public enum DPoPProof {
    /// Creates a signed proof.
    /// - Parameters:
    ///   - key: The flow's DPoP key.
    ///   - method: The HTTP method of the request.
    ///   - url: The request URL; query and fragment are cut off for `htu`.
    ///   - accessToken: The access token sent with the request, for `ath`.
    ///   - nonce: The latest server nonce, if any.
    ///   - issuedAt: The creation time.
    /// - Returns: The compact JWS for the `DPoP` header.
    public static func make(
        key: DPoPKey,
        method: String,
        url: URL,
        accessToken: String? = nil,
        nonce: String? = nil,
        issuedAt: Date = Date()
    ) throws(HAAPIError) -> String {
        var claims = #"{"jti":""# + RandomToken.make(byteCount: 18)
        claims += #"","htm":"# + JSONString.quoted(method.uppercased())
        claims += #","htu":"# + JSONString.quoted(htu(for: url))
        claims += #","iat":"# + String(Int(issuedAt.timeIntervalSince1970))
        if let accessToken { claims += #","ath":""# + accessTokenHash(accessToken) + "\"" }
        if let nonce { claims += #","nonce":"# + JSONString.quoted(nonce) }
        claims += "}"
        return try CompactJWS.sign(headerSegment: key.proofHeaderSegment, claimsJSON: claims.utf8, key: key.privateKey)
    }

    /// The `htu` value of a URL: scheme, authority and path, without query and fragment.
    /// - Parameter url: The request URL.
    public static func htu(for url: URL) -> String {
        // Every proof of a flow names one of a few endpoints: parsing the URL each time was 1.2 % of the gateway's step
        // path in a profile (`artifacts/profiles/`). The value depends only on what comes before the query.
        let address = url.absoluteString
        let key = String(address.prefix { $0 != "?" && $0 != "#" })
        if let known = htuCache.withLock({ $0[key] }) { return known }
        let value = uncachedHTU(for: url)
        htuCache.withLock { cache in
            if cache.count >= 64 { cache.removeAll() }
            cache[key] = value
        }
        return value
    }

    /// The `htu` values of the last URLs proofs were made for, by their text before any query or fragment.
    private static let htuCache = Mutex<[String: String]>([:])

    private static func uncachedHTU(for url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        return components.string ?? url.absoluteString
    }

    /// `ath`: base64url(SHA-256(ASCII token)).
    /// - Parameter token: The access token.
    public static func accessTokenHash(_ token: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(token.utf8)))
    }
}
