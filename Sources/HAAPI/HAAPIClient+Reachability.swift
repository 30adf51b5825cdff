import Foundation

extension HAAPIClient {
    /// Whether the upstream answers: a GET of its discovery document (or, with explicit endpoints, of its base URL)
    /// through the client's own transport (trust roots, mutual TLS) answers below 500 within `timeout`.
    /// - Parameter timeout: How long to wait.
    /// - Returns: `true` when the upstream answered.
    public func isUpstreamReachable(timeout: Duration = .seconds(2)) async -> Bool {
        let url = configuration.endpoints == nil
            ? (URL(string: configuration.discoveryPath, relativeTo: Self.directoryURL(configuration.baseURL))?.absoluteURL ?? configuration.baseURL)
            : configuration.baseURL
        let request = HTTPRequestData(method: "GET", url: url, headers: [(name: "Accept", value: "application/json")])
        guard let response = try? await context.transport.send(request, timeout: timeout, maxBodyBytes: 1 << 20) else { return false }
        return response.status < 500
    }
}
