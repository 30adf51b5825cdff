import Foundation
import HAAPI

extension UpstreamDoctor {
    /// The algorithms discovery names against the ones the gateway validates.
    func idTokenAlgorithms(_ endpoints: HAAPIEndpoints) -> [DoctorCheck] {
        guard configuration.scopes.contains("openid") else { return [] }
        guard endpoints.keySet != nil, endpoints.issuer != nil else {
            return [
                .failed(
                    "id-token",
                    "the server names no jwks_uri (or no issuer): ID tokens cannot be validated, so every sign-in would end with invalid_id_token.",
                    fix:
                        "Curity publishes its keys under the anonymous endpoint (\(CurityNames.jwksPath)): with named endpoints set \(ConfigurationKey.upstreamEndpointsJWKS.path)."
                )
            ]
        }
        let advertised = endpoints.idTokenSigningAlgorithms
        guard !advertised.isEmpty else {
            return [
                .note(
                    "id-token-algorithms",
                    "the server names no id_token_signing_alg_values_supported; the gateway validates RS256/384/512, PS256/384/512, ES256/384/512 and EdDSA with Ed25519 keys."
                )
            ]
        }
        let unvalidatable = JWSAlgorithm.unvalidatable(advertised)
        let eddsa = advertised.contains("EdDSA") ? " (EdDSA only with Ed25519 keys: see id-token-keys)" : ""
        if unvalidatable.isEmpty {
            return [
                .passed(
                    "id-token-algorithms",
                    "the server signs ID tokens with \(advertised.joined(separator: ", ")); the gateway validates each\(eddsa)."
                )
            ]
        }
        let fix = "sign ID tokens with an RSA, EC or Ed25519 key: \(CuritySetting.tokenSigning)."
        if unvalidatable.count == advertised.count {
            return [
                .failed(
                    "id-token-algorithms",
                    "the server signs ID tokens only with \(unvalidatable.joined(separator: ", ")), which the gateway cannot validate.",
                    fix: fix
                )
            ]
        }
        return [
            .warning(
                "id-token-algorithms",
                "the server names \(advertised.joined(separator: ", ")); the gateway cannot validate \(unvalidatable.joined(separator: ", "))\(eddsa): a token signed so ends its sign-in with invalid_id_token.",
                fix: fix
            )
        ]
    }

    /// Reads the JWKS as ID-token validation will, and checks its keys against the algorithms discovery names: what
    /// `EdDSA` means shows only in the keys (Ed25519 is validated, Ed448 is not, [EDDSA]).
    func idTokenKeys(_ client: HAAPIClient) async -> DoctorCheck? {
        let endpoints = client.endpoints
        guard configuration.scopes.contains("openid"), let url = endpoints.keySet, endpoints.issuer != nil else { return nil }
        let fix = "sign ID tokens with an Ed25519, EC or RSA key, published in the token service's JWKS: \(CuritySetting.tokenSigning)."
        let keySet: JSONWebKeySet
        do throws(IDTokenValidationError) {
            guard let read = try await client.publishedKeySet() else { return nil }
            keySet = read
        } catch {
            return .failed(
                "id-token-keys",
                "the JWKS at \(url.absoluteString) could not be read (\(error.message)): every sign-in would end with invalid_id_token.",
                fix:
                    "Curity serves it under the anonymous endpoint (\(CurityNames.jwksPath)) when the metadata names it so; it must answer this machine (\(ConfigurationKey.upstreamInternalURL.path), \(ConfigurationKey.upstreamTrustRootsFile.path)); with named endpoints, \(ConfigurationKey.upstreamEndpointsJWKS.path)."
            )
        }
        let advertised = endpoints.idTokenSigningAlgorithms
        let wanted = advertised.isEmpty ? JWSAlgorithm.allCases : advertised.compactMap(JWSAlgorithm.init(rawValue:))
        let covered = wanted.filter { algorithm in keySet.keys.contains { $0.canVerify(algorithm) } }
        let ed448 = keySet.ed448KeyCount
        let ed448Text = ed448 == 0 ? "" : " and \(ed448) Ed448 key\(ed448 == 1 ? "" : "s"), which the gateway cannot use"
        let usable = "\(keySet.keys.count) key\(keySet.keys.count == 1 ? "" : "s") the gateway can use"
        let eddsaMeant = advertised.isEmpty || advertised.contains("EdDSA")
        if covered.isEmpty {
            let why =
                ed448 > 0 && eddsaMeant
                ? "EdDSA here means Ed448: ID tokens cannot be validated, so every sign-in would end with invalid_id_token"
                : "none verifies \(wanted.map(\.rawValue).joined(separator: ", ")): every sign-in would end with invalid_id_token"
            return .failed("id-token-keys", "the JWKS at \(url.absoluteString) holds \(usable)\(ed448Text); \(why).", fix: fix)
        }
        let verifies = "verifying \(covered.map(\.rawValue).joined(separator: ", "))"
        if ed448 > 0 && eddsaMeant {
            return .warning(
                "id-token-keys",
                "the JWKS at \(url.absoluteString) holds \(usable) (\(verifies))\(ed448Text): an ID token signed with an Ed448 key ends its sign-in with invalid_id_token.",
                fix: fix
            )
        }
        return .passed("id-token-keys", "the JWKS at \(url.absoluteString) holds \(usable) (\(verifies))\(ed448Text).")
    }
}
