import Foundation

/// What a request needs to carry a DPoP proof: the key, and the latest `DPoP-Nonce` the server gave for it.
///
/// Nonces are kept per key (one per flow), never one per origin shared by every flow: whether Curity scopes a nonce to
/// the server, the key or the flow is not documented, and a shared value lets concurrent flows overwrite each other's
/// (notes 1.4, [DPOPNONCE]).
struct DPoPProofing: Sendable {
    let key: DPoPKey
    /// The latest `DPoP-Nonce`, put into the next proof's `nonce` claim.
    var nonce: String?

    /// Takes a `DPoP-Nonce` from `response`, if it carries one (RFC 9449 §8, §9: on any response, not only challenges).
    mutating func remember(from response: HTTPResponseData) {
        if let value = response.header("DPoP-Nonce"), !value.isEmpty { nonce = value }
    }

    /// A fresh proof for one request.
    func proof(method: String, url: URL, accessToken: String? = nil) throws(HAAPIError) -> String {
        try DPoPProof.make(key: key, method: method, url: url, accessToken: accessToken, nonce: nonce)
    }
}
