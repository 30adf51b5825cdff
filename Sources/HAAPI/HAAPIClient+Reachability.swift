import Foundation

extension HAAPIClient {
    /// Whether the upstream answers: a GET of its discovery document (or, with explicit endpoints, of its base URL)
    /// through the client's own transport (trust roots, mutual TLS) answers below 500 within `timeout`.
    /// - Parameter timeout: How long to wait.
    /// - Returns: `true` when the upstream answered.
    public func isUpstreamReachable(timeout: Duration = .seconds(2)) async -> Bool {
        let url =
            configuration.endpoints == nil
            ? OpenIDDiscovery.documentURL(issuer: configuration.baseURL, discoveryPath: configuration.discoveryPath)
            : configuration.baseURL
        let request = HTTPRequestData(method: "GET", url: url, headers: [(name: "Accept", value: "application/json")])
        guard let response = try? await context.transport.send(request, timeout: timeout, maxBodyBytes: 1 << 20) else { return false }
        return response.status < 500
    }

    /// Asks the token endpoint for a HAAPI token with a fresh DPoP key (and forgets it): shows that the client
    /// credentials are right and the client may use HAAPI, before anyone signs in.
    /// - Throws: ``HAAPIError/Code/upstreamStatus`` when the token endpoint refuses (the OAuth error in the message,
    ///   such as `invalid_client`), and the transport codes when it cannot be reached.
    public func verifyHAAPIAccess() async throws(HAAPIError) {
        _ = try await makeFlow().haapiToken()
    }
}
