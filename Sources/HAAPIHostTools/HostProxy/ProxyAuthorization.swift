import Foundation
import HAAPI

/// The fields `haapi-gateway proxy` adds to a request for the target: `Authorization: Bearer <access token>`, or for a
/// DPoP-bound token `Authorization: DPoP <access token>` and a fresh `DPoP` proof (RFC 9449 §7.1): `htm` the method,
/// `htu` the target URL without query and fragment, `ath` the token's hash, a new `jti`, `iat` now, and the server's
/// latest nonce when it gave one; signed with the key of the token file.
public enum ProxyAuthorization {
    /// The fields for one request (a new proof each time: never reused, as RFC 9449 §11.1 requires of a proof's `jti`).
    /// - Parameters:
    ///   - tokens: The current tokens.
    ///   - method: The request's method.
    ///   - url: The target URL the request goes to.
    ///   - nonce: The resource server's latest `DPoP-Nonce`, if any.
    /// - Throws: ``ProxyRefusal`` (503) when the token is DPoP-bound but the file has no key, or the proof cannot be
    ///   signed.
    public static func fields(
        for tokens: OAuthTokens,
        method: String,
        url: URL,
        nonce: String?
    ) throws(ProxyRefusal) -> [(name: String, value: String)] {
        guard tokens.isDPoPBound else { return [("Authorization", "Bearer " + tokens.accessToken)] }
        guard let key = tokens.dpopKey else {
            throw ProxyRefusal(
                status: 503,
                "the access token is DPoP-bound but the token file holds no DPoP key: sign in again with haapi-gateway login"
            )
        }
        do {
            let proof = try DPoPProof.make(key: key, method: method, url: url, accessToken: tokens.accessToken, nonce: nonce)
            return [("Authorization", "DPoP " + tokens.accessToken), ("DPoP", proof)]
        } catch {
            throw ProxyRefusal(status: 503, "no DPoP proof could be made: \(error.message)")
        }
    }
}
