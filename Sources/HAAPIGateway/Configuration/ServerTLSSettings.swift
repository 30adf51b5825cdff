import NIOSSL

/// The certificate chain and private key `serve` listens with on HTTPS (`server.tlsCertificateFile`,
/// `server.tlsKeyFile`), as PEM text. Printed (`description`, `debugDescription`, `dump`), it shows no key.
public struct ServerTLSSettings: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The server certificate, then any intermediates (PEM).
    public var certificateChainPEM: String
    /// The private key of the first certificate (PEM; never logged or shown).
    public var privateKeyPEM: String

    /// Creates TLS settings.
    /// - Parameters:
    ///   - certificateChainPEM: The certificate chain in PEM.
    ///   - privateKeyPEM: The private key in PEM.
    public init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// The settings with the private key redacted.
    public var description: String {
        "ServerTLSSettings(certificateChainPEM: \(certificateChainPEM.utf8.count) bytes, privateKeyPEM: \(SecretRedaction.marker))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The certificate chain only, so that `dump` shows no key.
    public var customMirror: Mirror { Mirror(self, children: ["certificateChainPEM": certificateChainPEM], displayStyle: .struct) }

    /// The TLS configuration of the listener (TLS 1.2 or later, HTTP/1.1).
    /// - Throws: `NIOSSLError` when the certificate or key does not load.
    func makeTLSConfiguration() throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8))
        guard !chain.isEmpty else { throw NIOSSLError.failedToLoadCertificate }
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["http/1.1"]
        return configuration
    }
}
