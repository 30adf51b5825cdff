import Foundation
import Hummingbird

/// Checks what every HAAPI request needs: the `Accept` type, the DPoP-bound HAAPI token and its proof.
struct HAAPIRequestGuard: Sendable {
    let context: DemoServerContext

    /// The caller, or the response refusing the request.
    enum Outcome {
        case accepted(HAAPICaller)
        case refused(Response)
    }

    /// Returns the caller, or the response refusing the request.
    /// - Parameters:
    ///   - request: The HAAPI request.
    ///   - url: The URL the request targets, without query (the expected `htu`).
    ///   - mediaType: What the answer will be: HAAPI requests must name `application/vnd.auth+json` in `Accept`
    ///     exactly [HAAPI]; other resources of a flow (an image link's target) must be acceptable under `Accept`'s
    ///     media ranges (RFC 9110 §12.5.1).
    func authenticate(_ request: Request, url: String, mediaType: String = DemoResponse.haapiMediaType) -> Outcome {
        // Before the proof is verified its key is unknown: a per-key nonce cannot be named yet.
        let anonymousNonce = context.nonceHeaders(for: nil)
        let accepted =
            mediaType == DemoResponse.haapiMediaType
            ? AcceptHeader.accepts(request.headers[values: .accept], mediaType: mediaType)
            : AcceptHeader.allows(request.headers[values: .accept], mediaType: mediaType)
        guard accepted else {
            return .refused(
                DemoResponse.problem(
                    .unexpected(
                        code: "not_acceptable",
                        title: "Not Acceptable",
                        messages: ["This request must accept \(mediaType)."],
                        status: 406
                    ),
                    headers: anonymousNonce
                )
            )
        }
        let token: IssuedToken, accessToken: String, boundKey: String
        switch haapiToken(of: request, anonymousNonce: anonymousNonce) {
        case .success(let found): (token, accessToken, boundKey) = found
        case .failure(let refusal): return .refused(refusal.response)
        }
        let result = context.dpopVerifier.verify(
            headerValues: request.headers[values: .dpop],
            method: request.method.rawValue,
            url: url,
            accessToken: accessToken
        )
        return outcome(of: result, token: token, boundKey: boundKey, anonymousNonce: anonymousNonce)
    }

    /// A refusal as a value, for `Result`.
    private struct Refusal: Error {
        let response: Response
    }

    /// The HAAPI token of `Authorization: DPoP <token>`, the token itself and the key it is bound to; or the 401 saying
    /// why not.
    private func haapiToken(
        of request: Request,
        anonymousNonce: HTTPFields
    ) -> Result<(token: IssuedToken, accessToken: String, boundKey: String), Refusal> {
        let authorizations = request.headers[values: .authorization]
        guard authorizations.count == 1, let authorization = authorizations.first else {
            return .failure(Refusal(response: DemoResponse.unauthorized(challenge: #"DPoP algs="ES256""#, headers: anonymousNonce)))
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "dpop" else {
            let challenge = #"DPoP error="invalid_token", error_description="The HAAPI token must be sent with the DPoP scheme", algs="ES256""#
            return .failure(Refusal(response: DemoResponse.unauthorized(challenge: challenge, headers: anonymousNonce)))
        }
        let accessToken = parts[1].trimmingCharacters(in: .whitespaces)
        guard let token = context.tokens.lookup(accessToken, kind: .access),
            token.scopes.contains(RegisteredClient.haapiScope), let boundKey = token.keyThumbprint
        else {
            let challenge = #"DPoP error="invalid_token", error_description="The HAAPI token is unknown, expired or not a HAAPI token", algs="ES256""#
            return .failure(Refusal(response: DemoResponse.unauthorized(challenge: challenge, headers: anonymousNonce)))
        }
        return .success((token, accessToken, boundKey))
    }

    /// The caller when the proof verified with the token's key; else the 401 that says why (a `use_dpop_nonce` one with
    /// the nonce for the proof's key, RFC 9449 §9).
    private func outcome(
        of result: Result<VerifiedDPoPProof, DPoPFailure>,
        token: IssuedToken,
        boundKey: String,
        anonymousNonce: HTTPFields
    ) -> Outcome {
        switch result {
        case .failure(.useNonce(let keyThumbprint)):
            // RFC 9449 §9: 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"` and the nonce for the proof's key.
            return .refused(
                DemoResponse.unauthorized(
                    challenge: #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof", algs="ES256""#,
                    headers: context.nonceHeaders(for: keyThumbprint)
                )
            )
        case .failure(.missing):
            return .refused(
                DemoResponse.unauthorized(
                    challenge: #"DPoP error="invalid_dpop_proof", error_description="A DPoP proof is required", algs="ES256""#,
                    headers: anonymousNonce
                )
            )
        case .failure(.invalid(let reason)):
            context.logger.debug("DPoP proof refused", metadata: ["reason": "\(reason)"])
            return .refused(
                DemoResponse.unauthorized(
                    challenge: #"DPoP error="invalid_dpop_proof", error_description="\#(reason)", algs="ES256""#,
                    headers: anonymousNonce
                )
            )
        case .success(let proof):
            guard proof.keyThumbprint == boundKey else {
                return .refused(
                    DemoResponse.unauthorized(
                        challenge:
                            #"DPoP error="invalid_dpop_proof", error_description="The proof key does not match the token's cnf.jkt", algs="ES256""#,
                        headers: context.nonceHeaders(for: proof.keyThumbprint)
                    )
                )
            }
            return .accepted(HAAPICaller(token: token, keyThumbprint: proof.keyThumbprint))
        }
    }
}
