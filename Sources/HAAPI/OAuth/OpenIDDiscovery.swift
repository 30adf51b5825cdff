import Foundation

/// Reads endpoints from an OpenID Provider configuration document.
enum OpenIDDiscovery {
    /// Fetches and parses the discovery document.
    /// - Parameters:
    ///   - url: The document URL.
    ///   - send: Sends one request.
    static func discover(at url: URL, send: (HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData) async throws(HAAPIError) -> HAAPIEndpoints {
        let response = try await send(HTTPRequestData(method: "GET", url: url, headers: [("Accept", "application/json")]))
        let contentType = response.header("Content-Type")
        guard (200..<300).contains(response.status) else {
            throw HAAPIError(.upstreamStatus, "the discovery document could not be fetched", status: response.status, contentType: contentType ?? "none")
        }
        guard let json = try? JSONParser.parse(response.body), case .object = json else {
            throw HAAPIError.malformed("the discovery document is not a JSON object", status: response.status, contentType: contentType ?? "none")
        }
        func endpoint(_ name: String) -> URL? {
            guard let text = json[name]?.stringValue, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http", url.host != nil
            else { return nil }
            return url
        }
        guard let authorization = endpoint("authorization_endpoint"), let token = endpoint("token_endpoint") else {
            throw HAAPIError.malformed("the discovery document lacks a valid authorization_endpoint or token_endpoint", status: response.status, contentType: contentType)
        }
        return HAAPIEndpoints(
            authorization: authorization, token: token, revocation: endpoint("revocation_endpoint"), issuer: json["issuer"]?.stringValue,
            keySet: endpoint("jwks_uri"), userinfo: endpoint("userinfo_endpoint"))
    }
}
