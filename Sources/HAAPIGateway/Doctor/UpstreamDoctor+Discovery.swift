import Foundation
import HAAPI

extension UpstreamDoctor {
    /// Why no client could be made: the metadata is missing, names another issuer, or the server cannot be reached.
    func discoveryFailure(_ error: HAAPIError) async -> DoctorCheck {
        switch error.code {
        case .noDiscoveryDocument:
            if let found = error.foundIssuer {
                return .failed("discovery", error.message + ".", fix: "set \(ConfigurationKey.upstreamBaseURL.path) to \(found), the issuer.")
            }
            return .failed(
                "discovery",
                error.message + ".",
                fix:
                    "let Curity publish its metadata, OpenID Connect's (\(CuritySetting.exposeMetadata)) or RFC 8414's (\(CuritySetting.exposeOAuthMetadata)), with \(ConfigurationKey.upstreamBaseURL.path) its issuer (the anonymous endpoint, https://<base-url>\(CuritySetting.anonymousEndpointExamplePath) in Curity's examples); or name the endpoints (\(ConfigurationKey.upstreamEndpointsAuthorization.path), .token, .jwks)."
            )
        case .issuerMismatch:
            return await issuerMismatch(error)
        case .connectionRefused, .nameResolution, .tls, .timeout, .transport:
            let reach = configuration.internalURL.map { " through \(ConfigurationKey.upstreamInternalURL.path) \($0.absoluteString)" } ?? ""
            let alsoInternalURL = configuration.internalURL == nil ? Self.internalURLHint : " and \(ConfigurationKey.upstreamInternalURL.path)"
            return .failed(
                "reachable",
                "the upstream could not be reached\(reach): \(error.message).",
                fix:
                    "check \(ConfigurationKey.upstreamBaseURL.path)\(alsoInternalURL); for a certificate of a private CA, \(ConfigurationKey.upstreamTrustRootsFile.path)."
            )
        case .invalidConfiguration:
            return .failed(
                "discovery",
                error.message + ".",
                fix:
                    "name the endpoints on \(ConfigurationKey.upstreamBaseURL.path)'s origin (upstream.endpoints), or drop \(ConfigurationKey.upstreamInternalURL.path)."
            )
        default:
            return .failed(
                "discovery",
                "the discovery document could not be read: \(error.message)\(error.status.map { " (HTTP \($0))" } ?? "").",
                fix:
                    "\(ConfigurationKey.upstreamBaseURL.path) must be the issuer; Curity publishes its metadata only with \(CuritySetting.exposeMetadata) (or \(CuritySetting.exposeOAuthMetadata) for RFC 8414's)."
            )
        }
    }

    /// The document under upstream.baseURL names another issuer. On another host that is most likely Curity's external
    /// URL; on the same origin, an issuer that is not the anonymous endpoint (where the metadata is) is what
    /// `issuer-override` makes: whether that issuer has metadata of its own is tried, and the fix follows from it.
    private func issuerMismatch(_ error: HAAPIError) async -> DoctorCheck {
        let found = error.foundIssuer ?? "(none)"
        guard let issuer = URL(string: found), Self.sameOrigin(issuer, configuration.baseURL) else {
            let causes = Self.mostLikelyFirst([
                "that issuer's host is Curity's external URL (\(CuritySetting.baseURL)) and not how this machine reaches the server: keep the external URL in \(ConfigurationKey.upstreamBaseURL.path) and set \(ConfigurationKey.upstreamInternalURL.path) to where the server is reached",
                "the issuer is set by Curity's \(CuritySetting.issuerOverride): name the endpoints (upstream.endpoints) with \(ConfigurationKey.upstreamIssuer.path): \(found), or remove the override",
            ])
            return .failed(
                "discovery",
                error.message + ".",
                fix:
                    "\(ConfigurationKey.upstreamBaseURL.path) must be the issuer the document names: \(causes)."
            )
        }
        var probe = configuration
        probe.baseURL = issuer
        do throws(HAAPIError) {
            let client = try await HAAPIClient(configuration: probe, logger: logger)
            let document = client.endpoints.metadataDocument?.absoluteString ?? found
            try? await client.shutdown()
            return .failed(
                "discovery",
                error.message + "; that issuer's own metadata is at \(document).",
                fix:
                    "set \(ConfigurationKey.upstreamBaseURL.path) to \(found), the issuer (Curity's \(CuritySetting.issuerOverride) makes it differ from the anonymous endpoint)."
            )
        } catch {
            let places = [probe.discoveryDocumentURL, probe.oauthMetadataURL].compactMap { $0?.absoluteString }.joined(separator: " nor at ")
            return .failed(
                "discovery",
                error.message + "; that issuer publishes no metadata of its own (none at \(places)).",
                fix:
                    "the issuer is not the anonymous endpoint, as Curity's \(CuritySetting.issuerOverride) makes it: name the endpoints (\(ConfigurationKey.upstreamEndpointsAuthorization.path), .token, .jwks, from the document under \(ConfigurationKey.upstreamBaseURL.path)) with \(ConfigurationKey.upstreamIssuer.path): \(found); or remove the override."
            )
        }
    }

    /// Where the endpoints came from: named, OpenID Connect discovery, or RFC 8414 metadata when there was no OpenID one.
    func discovered(_ endpoints: HAAPIEndpoints) -> DoctorCheck {
        let list = endpoints.named.map { "\($0.name) \($0.url.absoluteString)" }.joined(separator: ", ")
        if configuration.endpoints != nil {
            return .passed("discovery", "not used: the endpoints are named (issuer \(endpoints.issuer ?? "none")): \(list).")
        }
        let openID = configuration.discoveryDocumentURL.absoluteString
        let document = endpoints.metadataDocument?.absoluteString ?? openID
        if document != openID {
            return .passed(
                "discovery",
                "no OpenID Connect metadata at \(openID); the RFC 8414 metadata at \(document) names the issuer \(endpoints.issuer ?? "(none)"): \(list)."
            )
        }
        return .passed("discovery", "\(document) names the issuer \(endpoints.issuer ?? "(none)"): \(list).")
    }

    /// What the fix of an unreachable upstream adds when no `upstream.internalURL` is set.
    static let internalURLHint = " (or set \(ConfigurationKey.upstreamInternalURL.path) to the URL this machine reaches the server by)"

    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased() && lhs.port == rhs.port
    }
}
