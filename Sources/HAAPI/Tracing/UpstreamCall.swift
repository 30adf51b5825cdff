import Foundation
import Tracing

/// What a call to the upstream is for, and the span attributes that describe it without anything secret
/// (``UpstreamCallSpan``).
struct UpstreamCall {
    /// The kinds of call, named by the endpoint they go to.
    enum Kind: String {
        case authorize, token, revocation, userinfo, jwks, metadata
        /// A HAAPI step's action or link (a form post, a link followed, a poll).
        case step
    }

    let kind: Kind
    let attributes: SpanAttributes

    init(_ request: HTTPRequestData, endpoints: HAAPIEndpoints) {
        kind = Self.kind(of: request.url, endpoints: endpoints)
        var attributes: SpanAttributes = [:]
        attributes["http.request.method"] = request.method
        if let host = request.url.host {
            attributes["server.address"] = host
            attributes["server.port"] = request.url.port ?? (request.url.scheme == "https" ? 443 : 80)
        }
        attributes["url.scheme"] = request.url.scheme ?? ""
        attributes["url.path"] = request.url.path
        if kind == .token, let grant = Self.grantType(of: request) { attributes["oauth.grant_type"] = grant }
        self.attributes = attributes
    }

    private static func kind(of url: URL, endpoints: HAAPIEndpoints) -> Kind {
        let candidates: [(URL?, Kind)] = [
            (endpoints.metadataDocument, .metadata), (endpoints.authorization, .authorize), (endpoints.token, .token),
            (endpoints.revocation, .revocation), (endpoints.userinfo, .userinfo), (endpoints.keySet, .jwks),
        ]
        for (endpoint, kind) in candidates where endpoint.map({ sameEndpoint($0, url) }) == true { return kind }
        return .step
    }

    private static func sameEndpoint(_ endpoint: URL, _ url: URL) -> Bool {
        endpoint.host == url.host && endpoint.port == url.port && endpoint.path == url.path
    }

    /// The form's `grant_type` (which says whether the call gets the HAAPI token, exchanges a code or refreshes), one of
    /// the values OAuth defines; anything else is left out.
    private static func grantType(of request: HTTPRequestData) -> String? {
        guard let body = request.body, let text = String(data: body, encoding: .utf8) else { return nil }
        let known: Set<String> = ["client_credentials", "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange"]
        for pair in text.split(separator: "&") where pair.hasPrefix("grant_type=") {
            let value = String(pair.dropFirst("grant_type=".count)).removingPercentEncoding ?? ""
            return known.contains(value) ? value : nil
        }
        return nil
    }
}
