import Foundation
import Hummingbird

/// The OpenID Connect userinfo endpoint: a protected resource that accepts Bearer tokens and
/// DPoP-bound tokens (with a proof carrying `ath` from the `cnf.jkt` key), as RFC 9449 §7 describes.
struct UserInfoController: Sendable {
    let context: DemoServerContext

    func register(on router: Router<BasicRequestContext>) {
        router.get(RouterPath(DemoPaths.userinfo)) { request, _ in userinfo(request) }
        router.post(RouterPath(DemoPaths.userinfo)) { request, _ in userinfo(request) }
    }

    private func userinfo(_ request: Request) -> Response {
        // Per-key nonces are named once the proof's key is known (use_dpop_nonce); otherwise the server-wide one.
        let headers = context.nonceHeaders(for: nil)
        let authorizations = request.headers[values: .authorization]
        let parts = authorizations.count == 1 ? authorizations[0].split(separator: " ", maxSplits: 1).map(String.init) : []
        guard parts.count == 2 else {
            return DemoResponse.unauthorized(challenge: #"DPoP algs="ES256", Bearer"#, headers: headers)
        }
        let scheme = parts[0].lowercased(), accessToken = parts[1]
        guard let token = context.tokens.lookup(accessToken, kind: .access), let subject = token.subject else {
            return DemoResponse.unauthorized(
                challenge: Self.challenge(scheme, "invalid_token", "The access token is unknown or expired"),
                headers: headers
            )
        }
        if let bound = token.keyThumbprint {
            guard scheme == "dpop" else {
                return DemoResponse.unauthorized(
                    challenge: Self.challenge("dpop", "invalid_token", "The access token is DPoP-bound"),
                    headers: headers
                )
            }
            switch context.dpopVerifier.verify(
                headerValues: request.headers[values: .dpop],
                method: request.method.rawValue,
                url: context.proofURL(DemoPaths.userinfo),
                accessToken: accessToken
            )
            {
            case .failure(.useNonce(let keyThumbprint)):
                return DemoResponse.unauthorized(
                    challenge: Self.challenge("dpop", "use_dpop_nonce", "Nonce required"),
                    headers: context.nonceHeaders(for: keyThumbprint)
                )
            case .failure(.missing):
                return DemoResponse.unauthorized(
                    challenge: Self.challenge("dpop", "invalid_dpop_proof", "A DPoP proof is required"),
                    headers: headers
                )
            case .failure(.invalid(let reason)):
                return DemoResponse.unauthorized(challenge: Self.challenge("dpop", "invalid_dpop_proof", reason), headers: headers)
            case .success(let proof) where proof.keyThumbprint != bound:
                return DemoResponse.unauthorized(
                    challenge: Self.challenge("dpop", "invalid_dpop_proof", "The proof key does not match the token's cnf.jkt"),
                    headers: headers
                )
            case .success:
                break
            }
        } else if scheme != "bearer" {
            return DemoResponse.unauthorized(
                challenge: Self.challenge("bearer", "invalid_token", "The access token is a Bearer token"),
                headers: headers
            )
        }
        guard token.scopes.contains("openid") else {
            var fields = headers
            fields[.wwwAuthenticate] = Self.challenge(scheme, "insufficient_scope", "The openid scope is required")
            return Response(status: .forbidden, headers: fields)
        }
        var claims: [String: JSONValue] = ["sub": .string(subject)]
        if let user = DemoUser.named(subject) {
            if token.scopes.contains("profile") {
                claims["name"] = .string(user.name)
                claims["preferred_username"] = .string(user.username)
            }
            if token.scopes.contains("email") {
                claims["email"] = .string(user.email)
                claims["email_verified"] = .bool(true)
            }
        }
        return DemoResponse.json(claims, headers: headers)
    }

    private static func challenge(_ scheme: String, _ error: String, _ description: String) -> String {
        let name = scheme == "dpop" ? "DPoP" : "Bearer"
        let algs = scheme == "dpop" ? #", algs="ES256""# : ""
        return #"\#(name) error="\#(error)", error_description="\#(description)"\#(algs)"#
    }
}
