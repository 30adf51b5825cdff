import Foundation

extension HAAPIFlow {
    /// Fetches the person's claims from the OpenID Connect userinfo endpoint (Core 1.0 §5.3) with the access token of
    /// `tokens`: as a Bearer token (RFC 6750 §2.1), or when the tokens are DPoP-bound as `Authorization: DPoP` with a proof
    /// by their key carrying `ath` (RFC 9449 §7), answering one `use_dpop_nonce` challenge (§9). The flow's upstream
    /// cookies go with it.
    /// - Parameters:
    ///   - tokens: The tokens this flow's code exchange returned.
    ///   - subject: The validated ID token's `sub`, if there is one: the answer's `sub` must be exactly that (Core §5.3.2),
    ///     else none of its claims is used.
    /// - Returns: The claims of the answer's JSON object.
    /// - Throws: ``HAAPIError/Code/invalidParameters`` when the upstream names no `userinfo_endpoint`;
    ///   ``HAAPIError/Code/upstreamStatus`` for an answer other than 200; ``HAAPIError/Code/malformedResponse`` for one
    ///   that is not a JSON object (signed or encrypted answers, `application/jwt`, are not supported);
    ///   ``HAAPIError/Code/subjectMismatch`` for another `sub`; ``HAAPIError/Code/dpopRejected``.
    public func userinfo(with tokens: OAuthTokens, subject: String?) async throws(HAAPIError) -> [String: JSONValue] {
        guard let url = context.endpoints.userinfo else {
            throw HAAPIError(.invalidParameters, "the upstream's discovery names no userinfo_endpoint")
        }
        let bound = tokens.isDPoPBound ? tokens.dpopKey : nil
        if tokens.isDPoPBound, bound == nil {
            throw HAAPIError(.invalidParameters, "the tokens are DPoP-bound, but their key is not at hand")
        }
        var proofing = bound.map { DPoPProofing(key: $0, nonce: dpopNonce) }
        var retriedForNonce = false
        while true {
            var headers: [(name: String, value: String)] = [
                ("Accept", "application/json"), ("Authorization", (bound == nil ? "Bearer " : "DPoP ") + tokens.accessToken),
            ]
            if let proofing { headers.append(("DPoP", try proofing.proof(method: "GET", url: url, accessToken: tokens.accessToken))) }
            if let cookie = cookies.cookieHeader(for: url) { headers.append(("Cookie", cookie)) }
            let response = try await context.send(HTTPRequestData(method: "GET", url: url, headers: headers))
            proofing?.remember(from: response)
            let contentType = response.header("Content-Type")
            if response.status == 401, proofing != nil, let challenge = response.header("WWW-Authenticate"),
                Self.challengeError(challenge) == "use_dpop_nonce", response.header("DPoP-Nonce") != nil, !retriedForNonce
            {
                retriedForNonce = true
                logger.debug("userinfo asked for a DPoP nonce; retrying once")
                continue
            }
            guard response.status == 200 else {
                let error = response.header("WWW-Authenticate").flatMap(Self.challengeError).map { ", \($0)" } ?? ""
                throw HAAPIError(
                    .upstreamStatus,
                    "the userinfo endpoint answered HTTP \(response.status)\(error)",
                    status: response.status,
                    contentType: contentType ?? "none"
                )
            }
            guard MediaType.isJSON(contentType) else {
                throw HAAPIError.malformed(
                    "the userinfo answer is not JSON (signed or encrypted answers are not supported)",
                    status: 200,
                    contentType: contentType ?? "none"
                )
            }
            guard case .object(let claims)? = try? JSONParser.parse(response.body) else {
                throw HAAPIError.malformed("the userinfo answer is not a JSON object", status: 200, contentType: contentType)
            }
            if let subject, claims["sub"]?.stringValue != subject {
                throw HAAPIError(.subjectMismatch, "the userinfo answer's sub is not the ID token's sub, so its claims are not used")
            }
            return claims
        }
    }
}
