import Foundation

/// Where the gateway listens and how browsers reach it.
public struct ServerSettings: Sendable, Equatable {
    /// The address to bind (default `127.0.0.1`).
    public var host: String
    /// The port to bind (default 8080; 0 picks a free port).
    public var port: Int
    /// The URL browsers use, when it is not `http://host:port` (for example behind a TLS-terminating proxy).
    /// When its scheme is `https`, cookies get `Secure` and the `__Host-` prefix.
    public var publicBaseURL: URL?
    /// The largest request body accepted (default 64 KiB).
    public var maximumRequestBodyBytes: Int
    /// On SIGTERM, how long readiness is down and new sign-ins are refused before the listener stops (default 5 s).
    public var drainSeconds: Int = 5
    /// After the drain, how long the rest of a stop may take (default 30 s): the requests under way, the last callback
    /// deliveries, releasing what this replica holds in the database and closing its connections. What has not ended then
    /// is named in the log and the process exits with status 70 (``StopDeadline``).
    public var stopSeconds: Int = 30
    /// When set, the gateway itself listens on HTTPS with this certificate and key (`server.tlsCertificateFile`,
    /// `server.tlsKeyFile`); cookies are then `Secure` with the `__Host-` prefix.
    public var tls: ServerTLSSettings?
    /// Whether `/healthz` and `/readyz` are served beside the sign-in pages (default true); they are always served on the
    /// metrics listener when that is enabled.
    public var healthEndpoints: Bool = true
    /// Reverse proxies in front of the gateway (addresses or CIDR blocks): for a connection from one of them the client
    /// address is taken from `X-Forwarded-For` (default none: the peer is the client).
    public var trustedProxies: [IPAddressRange] = []
    /// How long a connection has to deliver a whole request, head and body, counted from its opening or from the end of its
    /// previous response (default 10 s); a slower one is closed. While the gateway works on a response there is no bound
    /// here (the upstream timeout bounds that).
    public var requestTimeoutSeconds: Int = 10
    /// The most connections open at once (default 4096), the metrics listener's included; one more is closed at once.
    /// Lowered at startup when the open-file limit leaves no room for it (``OpenFileLimit``).
    public var maximumConnections: Int = 4096
    /// The most connections open at once from one peer address (default 64; a browser opens at most 6 per host); one more
    /// from that address is closed at once. 0: no cap per address.
    public var maximumConnectionsPerAddress: Int = 64
    /// When over 0, browsers reaching the gateway over HTTPS are told to use only HTTPS for its host for this many
    /// seconds (`Strict-Transport-Security`, RFC 6797); 0 sends nothing.
    public var strictTransportSecuritySeconds: Int = 0

    /// Creates server settings.
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port to bind.
    ///   - publicBaseURL: The externally visible base URL.
    ///   - maximumRequestBodyBytes: The body size limit.
    public init(host: String = "127.0.0.1", port: Int = 8080, publicBaseURL: URL? = nil, maximumRequestBodyBytes: Int = 64 * 1024) {
        self.host = host
        self.port = port
        self.publicBaseURL = publicBaseURL
        self.maximumRequestBodyBytes = maximumRequestBodyBytes
    }

    /// Whether browsers reach the gateway over TLS (cookies are then `Secure` with the `__Host-` prefix): the public URL
    /// is https, or there is none and the gateway listens on HTTPS itself.
    public var servesTLS: Bool {
        guard let publicBaseURL else { return tls != nil }
        return publicBaseURL.scheme?.lowercased() == "https"
    }
}
