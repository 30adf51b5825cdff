import Foundation
import NIOSSL

extension GatewayConfiguration {
    /// `server`: where the gateway listens and answers, its bounds, its TLS, and the checks between its settings.
    static func resolveServer(_ reader: inout ConfigurationReader) -> ServerSettings {
        let defaults = ServerSettings()
        var server = ServerSettings(
            host: reader.string(.serverHost) ?? defaults.host,
            port: reader.integer(.serverPort, default: defaults.port),
            publicBaseURL: reader.httpURL(.serverPublicURL),
            maximumRequestBodyBytes: reader.integer(
                .serverMaximumRequestBodyBytes,
                default: defaults.maximumRequestBodyBytes
            )
        )
        server.drainSeconds = reader.integer(.serverDrainSeconds, default: defaults.drainSeconds)
        server.stopSeconds = reader.integer(.serverStopSeconds, default: defaults.stopSeconds)
        server.healthEndpoints = reader.boolean(.serverHealthEndpoints, default: defaults.healthEndpoints)
        server.trustedProxies = reader.addressRanges(.serverTrustedProxies)
        server.requestTimeoutSeconds = reader.integer(
            .serverRequestTimeoutSeconds,
            default: defaults.requestTimeoutSeconds
        )
        server.maximumConnections = reader.integer(.serverMaximumConnections, default: defaults.maximumConnections)
        server.maximumConnectionsPerAddress = reader.integer(
            .serverMaximumConnectionsPerAddress,
            default: defaults.maximumConnectionsPerAddress
        )
        if server.maximumConnectionsPerAddress > server.maximumConnections {
            reader.problem(
                .serverMaximumConnectionsPerAddress,
                "must not be larger than \(ConfigurationKey.serverMaximumConnections.path) (\(server.maximumConnections))"
            )
        }
        server.strictTransportSecuritySeconds = reader.integer(
            .serverStrictTransportSecuritySeconds,
            default: defaults.strictTransportSecuritySeconds
        )
        server.tls = Self.serverTLS(&reader)
        if server.host.trimmingCharacters(in: .whitespaces).isEmpty { reader.problem(.serverHost, "must not be empty") }
        if let url = server.publicBaseURL, !(url.path.isEmpty || url.path == "/") || url.query != nil || url.fragment != nil {
            reader.problem(.serverPublicURL, "must be an origin such as https://login.example.com (the gateway serves from /)")
        }
        return server
    }

    /// `server.tlsCertificateFile` and `server.tlsKeyFile`: both or neither, each a readable PEM file that loads.
    private static func serverTLS(_ reader: inout ConfigurationReader) -> ServerTLSSettings? {
        let certificateSet = reader.isSet(.serverTlsCertificateFile), keySet = reader.isSet(.serverTlsKeyFile)
        guard certificateSet || keySet else { return nil }
        guard certificateSet && keySet else {
            reader.problem(
                certificateSet ? .serverTlsKeyFile : .serverTlsCertificateFile,
                "is required with \(certificateSet ? ConfigurationKey.serverTlsCertificateFile.path : ConfigurationKey.serverTlsKeyFile.path)"
            )
            return nil
        }
        guard let certificate = reader.fileContents(.serverTlsCertificateFile), let key = reader.fileContents(.serverTlsKeyFile) else {
            return nil
        }
        let settings = ServerTLSSettings(certificateChainPEM: certificate, privateKeyPEM: key)
        if (try? NIOSSLCertificate.fromPEMBytes(Array(certificate.utf8)))?.isEmpty != false {
            reader.problem(.serverTlsCertificateFile, "does not hold a PEM certificate")
            return nil
        }
        if (try? NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem)) == nil {
            reader.problem(.serverTlsKeyFile, "does not hold a PEM private key (PKCS#8, SEC1 or PKCS#1, unencrypted)")
            return nil
        }
        return settings
    }
}
