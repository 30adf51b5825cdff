import Foundation

/// Reads endpoints from an OpenID Provider configuration document found under the issuer, as OpenID Connect clients do,
/// or, when there is none, from the issuer's RFC 8414 authorization server metadata.
///
/// Curity's issuer is its anonymous endpoint (`https://<base-url>/oauth/v2/oauth-anonymous` in every Curity example) and its metadata
/// is published under it, and only when the token service exposes it ([OIDCMETA], notes 5): not at the host's root. A
/// document that is missing is said with where Curity would have it.
enum OpenIDDiscovery {
    /// The path of Curity's anonymous endpoint in a default installation: its issuer ([OIDCMETA], [SRVCONF]).
    static let curityAnonymousEndpointPath = "/oauth/v2/oauth-anonymous"

    /// The discovery document's URL under `issuer` (`<issuer>/.well-known/openid-configuration`, OpenID Connect
    /// Discovery 1.0 §4).
    static func documentURL(issuer: URL, discoveryPath: String) -> URL {
        URL(string: discoveryPath, relativeTo: HAAPIClient.directoryURL(issuer))?.absoluteURL ?? issuer
    }

    /// Where a default Curity installation on `url`'s origin has its issuer.
    static func curityIssuer(near url: URL) -> URL? {
        onOrigin(of: url, path: curityAnonymousEndpointPath)
    }

    /// `path` on `url`'s origin, without query or fragment.
    private static func onOrigin(of url: URL, path: String) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        components.path = path
        components.query = nil
        components.fragment = nil
        return components.url
    }

    /// Where RFC 8414 §3.1 puts an issuer's authorization server metadata: the well-known prefix between the host and the
    /// issuer's path (`https://host/.well-known/oauth-authorization-server/oauth/v2/oauth-anonymous`), where Curity
    /// serves it when the token service's `authorization-server/expose-metadata` is on
    /// (https://curity.io/docs/idsvr/latest/token-service-admin-guide/metadata.html).
    static func oauthMetadataURL(issuer: URL) -> URL? {
        let path = issuer.path.hasSuffix("/") ? String(issuer.path.dropLast()) : issuer.path
        return onOrigin(of: issuer, path: "/.well-known/oauth-authorization-server" + path)
    }

    /// Fetches and parses the discovery document of `issuer`, which must name exactly that issuer; when there is none, the
    /// issuer's RFC 8414 metadata, which must name it too (RFC 8414 §3.3).
    /// - Parameters:
    ///   - issuer: The configured issuer.
    ///   - discoveryPath: The document's path relative to the issuer.
    ///   - send: Sends one request.
    /// - Throws: ``HAAPIError/Code/noDiscoveryDocument`` (with where Curity publishes it, and where one was found when
    ///   it was), ``HAAPIError/Code/issuerMismatch``, or the transport's and status errors.
    static func discover(
        issuer: URL,
        discoveryPath: String,
        send: (HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData
    ) async throws(HAAPIError) -> HAAPIEndpoints {
        let url = documentURL(issuer: issuer, discoveryPath: discoveryPath)
        do throws(HAAPIError) {
            return try await discover(at: url, expectedIssuer: issuer.absoluteString, send: send)
        } catch  where error.code == .noDiscoveryDocument {
            var tried = error.message
            if let oauthURL = oauthMetadataURL(issuer: issuer), oauthURL != url {
                do throws(HAAPIError) {
                    return try await discover(at: oauthURL, expectedIssuer: issuer.absoluteString, send: send)
                } catch  where [.noDiscoveryDocument, .upstreamStatus].contains(error.code) {
                    tried += ", nor RFC 8414 metadata at \(oauthURL.absoluteString)\(error.status.map { " (HTTP \($0))" } ?? "")"
                }
            }
            let (text, found) = await hint(issuer: issuer, discoveryPath: discoveryPath, send: send)
            var hinted = HAAPIError(.noDiscoveryDocument, tried + "; " + text, status: error.status, contentType: error.contentType)
            hinted.foundIssuer = found
            throw hinted
        }
    }

    /// What to change, looked up once: a document at Curity's default issuer on the same origin, or where Curity would
    /// have it.
    private static func hint(
        issuer: URL,
        discoveryPath: String,
        send: (HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData
    ) async -> (text: String, foundIssuer: String?) {
        guard let curity = curityIssuer(near: issuer), !sameIssuer(curity.absoluteString, issuer.absoluteString) else {
            return (
                "Curity publishes them there only when the token service exposes its OpenID Connect metadata (or, for RFC 8414's, its authorization server metadata); otherwise name the endpoints",
                nil
            )
        }
        let curityDocument = documentURL(issuer: curity, discoveryPath: discoveryPath)
        if let found = try? await discover(at: curityDocument, expectedIssuer: nil, send: send), let named = found.issuer {
            return ("there is one at \(curityDocument.absoluteString), naming the issuer \(named)", named)
        }
        return (
            "Curity publishes its metadata under its anonymous endpoint, by default \(curity.absoluteString), and only when the token service exposes it; otherwise name the endpoints",
            nil
        )
    }

    /// Fetches and parses one document.
    /// - Parameter expectedIssuer: The issuer it must name, or nil to take any.
    static func discover(
        at url: URL,
        expectedIssuer: String?,
        send: (HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData
    ) async throws(HAAPIError) -> HAAPIEndpoints {
        let response = try await send(HTTPRequestData(method: "GET", url: url, headers: [("Accept", "application/json")]))
        let contentType = response.header("Content-Type")
        if response.status == 404 || response.status == 410 {
            throw HAAPIError(
                .noDiscoveryDocument,
                "no discovery document at \(url.absoluteString) (HTTP \(response.status))",
                status: response.status,
                contentType: contentType ?? "none"
            )
        }
        guard (200..<300).contains(response.status) else {
            throw HAAPIError(
                .upstreamStatus,
                "the discovery document at \(url.absoluteString) could not be fetched",
                status: response.status,
                contentType: contentType ?? "none"
            )
        }
        guard let json = try? JSONParser.parse(response.body), case .object = json else {
            throw HAAPIError(
                .noDiscoveryDocument,
                "\(url.absoluteString) answered with something that is not a discovery document (not a JSON object)",
                status: response.status,
                contentType: contentType ?? "none"
            )
        }
        let issuer = json["issuer"]?.stringValue
        if let expectedIssuer, let issuer, !sameIssuer(issuer, expectedIssuer) {
            var mismatch = HAAPIError(
                .issuerMismatch,
                "the discovery document at \(url.absoluteString) names the issuer \(issuer.prefix(200)), not the configured \(expectedIssuer)",
                status: response.status,
                contentType: contentType
            )
            mismatch.foundIssuer = String(issuer.prefix(200))
            throw mismatch
        }
        func endpoint(_ name: String) -> URL? {
            guard let text = json[name]?.stringValue, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http", url.host != nil
            else { return nil }
            return url
        }
        guard let authorization = endpoint("authorization_endpoint"), let token = endpoint("token_endpoint") else {
            throw HAAPIError.malformed(
                "the discovery document lacks a valid authorization_endpoint or token_endpoint",
                status: response.status,
                contentType: contentType
            )
        }
        func strings(_ name: String) -> [String] {
            guard case .array(let values)? = json[name] else { return [] }
            return values.compactMap(\.stringValue)
        }
        return HAAPIEndpoints(
            authorization: authorization,
            token: token,
            revocation: endpoint("revocation_endpoint"),
            issuer: issuer,
            keySet: endpoint("jwks_uri"),
            userinfo: endpoint("userinfo_endpoint"),
            idTokenSigningAlgorithms: strings("id_token_signing_alg_values_supported"),
            scopesSupported: strings("scopes_supported"),
            metadataDocument: url
        )
    }

    /// Whether two issuers are the same, a trailing slash aside (the configured base URL may have one).
    static func sameIssuer(_ lhs: String, _ rhs: String) -> Bool {
        func trimmed(_ value: String) -> Substring { value.hasSuffix("/") ? value.dropLast() : Substring(value) }
        return trimmed(lhs) == trimmed(rhs)
    }
}
