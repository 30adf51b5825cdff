import Foundation
import HAAPI

/// The settings of the listener: where it listens, its limits, TLS and the stop.
/// Each is a constant named after its path (`server.port`: ``serverPort``), the one place that path is written; its
/// summary, the reference's text, is its documentation.
extension ConfigurationKey {
    /// The `server` section's keys, in the reference's order.
    static let serverKeys: [ConfigurationKey] = [
        serverHost, serverPort, serverPublicURL, serverMaximumRequestBodyBytes, serverDrainSeconds, serverStopSeconds, serverHealthEndpoints,
        serverTrustedProxies, serverRequestTimeoutSeconds, serverMaximumConnections, serverMaximumConnectionsPerAddress,
        serverStrictTransportSecuritySeconds, serverTlsCertificateFile, serverTlsKeyFile,
    ]

    public static let serverHost = ConfigurationKey(
        "server.host",
        .string,
        .afterRestart(\.server.host),
        "The address to listen on; anything but loopback needs HTTPS or a TLS proxy in front."
    ) {
        $0.server.host
    }

    public static let serverPort = ConfigurationKey(
        "server.port",
        .integer,
        range: 0...65_535,
        .afterRestart(\.server.port),
        "The port to listen on; 0 picks a free port."
    ) {
        "\($0.server.port)"
    }

    public static let serverPublicURL = ConfigurationKey(
        "server.publicURL",
        .string,
        .afterRestart(\.server.publicBaseURL),
        "The origin people reach the gateway by, when it is not http://host:port (required beyond loopback with devices)."
    ) { $0.server.publicBaseURL?.absoluteString }

    public static let serverMaximumRequestBodyBytes = ConfigurationKey(
        "server.maximumRequestBodyBytes",
        .integer,
        range: 1024...(16 << 20),
        .afterRestart(\.server.maximumRequestBodyBytes),
        "The largest request body accepted, in bytes; larger posts get a 413 page."
    ) { "\($0.server.maximumRequestBodyBytes)" }

    public static let serverDrainSeconds = ConfigurationKey(
        "server.drainSeconds",
        .integer,
        range: 0...300,
        .afterRestart(\.server.drainSeconds),
        "On SIGTERM, how long /readyz answers 503 and new sign-ins are turned away before the listener stops."
    ) { "\($0.server.drainSeconds)" }

    public static let serverStopSeconds = ConfigurationKey(
        "server.stopSeconds",
        .integer,
        range: 5...600,
        .afterRestart(\.server.stopSeconds),
        "After the drain, how long the rest of a stop may take; what has not ended then is named and the process exits 70."
    ) { "\($0.server.stopSeconds)" }

    public static let serverHealthEndpoints = ConfigurationKey(
        "server.healthEndpoints",
        .boolean,
        .afterRestart(\.server.healthEndpoints),
        "Whether /healthz and /readyz are served on this listener too (always on the metrics listener)."
    ) { "\($0.server.healthEndpoints)" }

    public static let serverTrustedProxies = ConfigurationKey(
        "server.trustedProxies",
        .list,
        .afterRestart(\.server.trustedProxies),
        "Reverse proxies (addresses or CIDR blocks) whose X-Forwarded-For names the client."
    ) { list($0.server.trustedProxies.map(\.description)) }

    public static let serverRequestTimeoutSeconds = ConfigurationKey(
        "server.requestTimeoutSeconds",
        .integer,
        range: 1...300,
        .afterRestart(\.server.requestTimeoutSeconds),
        "How long a connection may take to deliver a whole request, and stay idle between requests."
    ) { "\($0.server.requestTimeoutSeconds)" }

    public static let serverMaximumConnections = ConfigurationKey(
        "server.maximumConnections",
        .integer,
        range: 1...1_000_000,
        .afterRestart(\.server.maximumConnections),
        "The most connections open at once, the metrics listener's included."
    ) { "\($0.server.maximumConnections)" }

    public static let serverMaximumConnectionsPerAddress = ConfigurationKey(
        "server.maximumConnectionsPerAddress",
        .integer,
        range: 0...1_000_000,
        .afterRestart(\.server.maximumConnectionsPerAddress),
        "The most connections open at once from one address; 0: no cap per address."
    ) { "\($0.server.maximumConnectionsPerAddress)" }

    public static let serverStrictTransportSecuritySeconds = ConfigurationKey(
        "server.strictTransportSecuritySeconds",
        .integer,
        range: 0...63_072_000,
        .atOnce,
        "When over 0 and browsers reach the gateway over HTTPS, Strict-Transport-Security max-age in seconds; 0: not sent."
    ) { "\($0.server.strictTransportSecuritySeconds)" }

    public static let serverTlsCertificateFile = ConfigurationKey(
        "server.tlsCertificateFile",
        .string,
        .afterRestart(\.server.tls),
        "Listen on HTTPS with this PEM certificate chain (with tlsKeyFile)."
    ) {
        $0.server.tls.map { fingerprint($0.certificateChainPEM) }
    }

    public static let serverTlsKeyFile = ConfigurationKey(
        "server.tlsKeyFile",
        .string,
        .afterRestart(\.server.tls),
        "The PEM private key of tlsCertificateFile."
    ) {
        $0.server.tls.map { fingerprint($0.privateKeyPEM) }
    }

}
