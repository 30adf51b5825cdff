import Foundation

/// Sends every request for the upstream's external origin to its internal URL (``HAAPIClientConfiguration/internalURL``)
/// and refuses every other origin.
///
/// Curity writes its external URL into discovery, absolute hrefs and `iss`; its DPoP documentation says a proof's method
/// and URL must match the request ([DPOPNONCE]), and its own server-side client says `htu` "must always be created using
/// the authorization server's external URL" ([SRVCLIENT], notes 5; which URL Curity compares behind a proxy is not
/// documented). Inside a cluster the gateway often reaches the server by another URL. So everything above this
/// transport (proofs, the origin guard, cookies, `iss` checks) works with the external URL, and only the connection is
/// made to the internal one:
/// - the request URL's scheme, host and port become the internal URL's; path and query stay;
/// - the `Host` header names the **external** authority, so that a reverse proxy routing by name reaches the server,
///   and a Curity without a configured base URL (which then builds its URLs from the request) builds the external ones;
/// - TLS (for an https internal URL) is made with the internal host: its name is sent as SNI and the certificate must be
///   valid for it (extra roots from ``HAAPIClientConfiguration/additionalTrustRootsPEM``).
struct InternalRouteTransport: HAAPITransport {
    private let base: any HAAPITransport
    private let externalOrigin: String
    private let externalAuthority: String
    private let internalScheme: String
    private let internalHost: String
    private let internalPort: Int?

    /// - Parameters:
    ///   - base: The transport that connects.
    ///   - externalURL: A URL on the external origin (the configured base URL).
    ///   - internalURL: Where to connect instead (an origin).
    init(base: any HAAPITransport, externalURL: URL, internalURL: URL) {
        self.base = base
        self.externalOrigin = OriginGuard.origin(of: externalURL)
        let host = externalURL.host ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        self.externalAuthority = bracketed + (externalURL.port.map { ":\($0)" } ?? "")
        self.internalScheme = internalURL.scheme?.lowercased() ?? "https"
        self.internalHost = internalURL.host ?? ""
        self.internalPort = internalURL.port
    }

    func send(_ request: HTTPRequestData, timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponseData {
        try await base.send(try route(request), timeout: timeout, maxBodyBytes: maxBodyBytes)
    }

    func shutdown() async throws {
        try await base.shutdown()
    }

    /// The request as it is sent: to the internal URL, with the external `Host`.
    /// - Throws: ``HAAPIError/Code/offOriginHref`` for a request to any other origin than the external one.
    func route(_ request: HTTPRequestData) throws(HAAPIError) -> HTTPRequestData {
        let origin = OriginGuard.origin(of: request.url)
        guard origin == externalOrigin else {
            throw HAAPIError(
                .offOriginHref,
                "a request for \(origin) was refused: with an internal URL only the upstream's external origin \(externalOrigin) is reached"
            )
        }
        guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: true) else {
            throw HAAPIError(.invalidParameters, "the request URL cannot be parsed")
        }
        components.scheme = internalScheme
        if internalHost.contains(":"), !internalHost.hasPrefix("[") {
            components.percentEncodedHost = "[\(internalHost)]"  // an IPv6 literal, bracketed as RFC 3986 §3.2.2 writes it
        } else {
            components.host = internalHost
        }
        components.port = internalPort
        guard let url = components.url else { throw HAAPIError(.invalidParameters, "the internal request URL cannot be built") }
        var routed = request
        routed.url = url
        routed.headers.removeAll { $0.name.caseInsensitiveCompare("Host") == .orderedSame }
        routed.headers.append((name: "Host", value: externalAuthority))
        return routed
    }
}
