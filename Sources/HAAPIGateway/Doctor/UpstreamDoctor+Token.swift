import Foundation
import HAAPI

extension UpstreamDoctor {
    /// Asks for a HAAPI token, and reads a refusal by its OAuth error: only what the error shows is claimed (a client
    /// whose proof was refused may or may not have authenticated, so nothing is said of it).
    func token(_ client: HAAPIClient) async -> [DoctorCheck] {
        do throws(HAAPIError) {
            try await client.verifyHAAPIAccess()
            return [
                .passed("client-authentication", "the token endpoint accepted the client \(configuration.clientID) (\(method))."),
                .passed("haapi-token", "a DPoP-bound HAAPI token (scope \(CurityNames.haapiScope)) was issued."),
            ]
        } catch {
            guard let refusal = error.oauthError else {
                if [.connectionRefused, .nameResolution, .tls, .timeout, .transport].contains(error.code) {
                    return [
                        .failed(
                            "reachable",
                            "the token endpoint could not be reached: \(error.message).",
                            fix: "check \(ConfigurationKey.upstreamBaseURL.path) and \(ConfigurationKey.upstreamInternalURL.path)."
                        )
                    ]
                }
                return [
                    .failed(
                        "haapi-token",
                        "the HAAPI token request failed: \(error.message).",
                        fix:
                            "the token endpoint (\(client.endpoints.token.absoluteString)) answered without an OAuth error: check that \(ConfigurationKey.upstreamBaseURL.path) (and \(ConfigurationKey.upstreamInternalURL.path)) lead to Curity's token endpoint, not to a proxy's page."
                    )
                ]
            }
            return tokenRefused(refusal, tokenEndpoint: client.endpoints.token)
        }
    }

    /// One reading per OAuth error (RFC 6749 §5.2, RFC 9449 §5, Curity's DPoP page for `use_dpop_nonce`), each naming
    /// what it could mean, most likely first.
    func tokenRefused(_ refusal: OAuthErrorResponse, tokenEndpoint: URL) -> [DoctorCheck] {
        let said =
            "HTTP \(refusal.httpStatus) \(DoctorText.quoted(refusal.error))" + (refusal.errorDescription.map { ": \(DoctorText.quoted($0))" } ?? "")
        let id = configuration.clientID
        let secret = method.hasPrefix("secret") ? ", holding the secret in \(ConfigurationKey.upstreamClientSecret.path)" : ""
        let authentication =
            "the client must exist with this id and authenticate as \(ConfigurationKey.upstreamClientAuthentication.path) says (\(method)): \(CuritySetting.clientAuthentication(id, method: method))\(secret)"
        let attestation =
            "the client must attest, which a server cannot: it needs \(CuritySetting.haapiWithoutAttestation(id)) (Curity does not document which error a missing attestation gets)"
        let capability =
            "the client has no HAAPI capability: \(CuritySetting.haapiCapability(id)) (\(CuritySetting.adminUI(id, CuritySetting.capabilityPlaces)))"
        let authenticated = DoctorCheck.passed(
            "client-authentication",
            "the token endpoint authenticated the client \(id) (it answered \(DoctorText.quoted(refusal.error)), which RFC 6749 §5.2 gives an authenticated client not allowed the grant)."
        )
        switch refusal.error {
        case "invalid_client":
            return [
                .failed(
                    "client-authentication",
                    "the token endpoint refused the client \(id) (\(said)).",
                    fix: Self.mostLikelyFirst([authentication, attestation]) + "."
                )
            ]
        case CurityNames.invalidDPoPProof.name:
            return [proofRefused(said, tokenEndpoint: tokenEndpoint)]
        case CurityNames.useDPoPNonce.name:
            return [nonceRefused(said)]
        case "unauthorized_client":
            return [
                authenticated,
                .failed(
                    "haapi-token",
                    "the token endpoint refused the HAAPI token (\(said)).",
                    fix: Self.mostLikelyFirst([attestation, capability]) + "."
                ),
            ]
        case "invalid_scope":
            return [
                .failed(
                    "haapi-token",
                    "the token endpoint refused the HAAPI scope \(CurityNames.haapiScope) (\(said)).",
                    fix:
                        "Curity does not document which settings give a client the HAAPI scope; its own server-side client has the HAAPI capability and \(CurityNames.allowWithoutAttestation): \(Self.mostLikelyFirst([capability, attestation]))."
                )
            ]
        default:
            return [
                .failed(
                    "haapi-token",
                    "the token endpoint refused the HAAPI token (\(said)).",
                    fix: Self.mostLikelyFirst([
                        "what the server said: its log names the cause",
                        attestation,
                        capability,
                        "a proxy between this machine and Curity drops or changes the DPoP or Authorization header",
                    ]) + "."
                )
            ]
        }
    }

    /// `invalid_dpop_proof`: Curity checks that a proof's method and URL match the request; the URL the proof named is
    /// one reading among others.
    private func proofRefused(_ said: String, tokenEndpoint: URL) -> DoctorCheck {
        let internalURL =
            configuration.internalURL.map { "\(ConfigurationKey.upstreamInternalURL.path) is \($0.absoluteString)" }
            ?? "\(ConfigurationKey.upstreamInternalURL.path) is not set"
        let causes = Self.mostLikelyFirst([
            "this machine reaches Curity by another URL, or through a proxy that changes the host or path: keep the external URL in \(ConfigurationKey.upstreamBaseURL.path) and set \(ConfigurationKey.upstreamInternalURL.path) to the URL this machine uses (\(internalURL))",
            "\(ConfigurationKey.upstreamBaseURL.path) (or \(ConfigurationKey.upstreamEndpointsToken.path)) is not on Curity's external URL: use the issuer its metadata names",
            "a proxy between this machine and Curity drops or changes the DPoP header",
        ])
        return .failed(
            "haapi-token",
            "the token endpoint refused the DPoP proof (\(said)); the proof named POST \(tokenEndpoint.absoluteString).",
            fix:
                "Curity checks that a proof's method and URL match the request; the gateway's proofs name the token endpoint its metadata names (Curity's external URL, \(CuritySetting.baseURL), or the endpoint's own in \(CuritySetting.metadataBaseURLs)): \(causes)."
        )
    }

    /// `use_dpop_nonce` after the gateway's one retry: Curity answers it when a proof's nonce is missing or stale, with a
    /// fresh `DPoP-Nonce`, so a second one points at the nonce, not at URLs.
    private func nonceRefused(_ said: String) -> DoctorCheck {
        let id = configuration.clientID
        let causes = Self.mostLikelyFirst([
            "a proxy between this machine and Curity drops the \(CurityNames.dpopNonceHeader) response header, so the retry carried no fresh nonce",
            "the nonces come from the client's \(CuritySetting.useLegacyDPoP(id)) (false: nonces; true: none): set it true to turn them off (the gateway works either way; \(CurityNames.tokenBoundCodes) needs it false), and read Curity's log for why the nonce was refused",
        ])
        return .failed(
            "haapi-token",
            "the token endpoint asked for a DPoP nonce again after the gateway retried with the one it sent (\(said)).",
            fix:
                "Curity answers \(CurityNames.useDPoPNonce) when a proof's nonce is missing or stale, with a fresh one in the \(CurityNames.dpopNonceHeader) response header, and the gateway retried once with it: \(causes)."
        )
    }
}
