import HAAPIGateway
import NIOSSL
import PostgresNIO

extension PostgresURL {
    /// PostgresNIO's client configuration for this URL: the TLS of its `sslmode`, the `application_name`
    /// `haapi-gateway` (so operators see it in `pg_stat_activity`), `startupParameters` (settings of its connections),
    /// and the connect timeout and pool size given.
    func clientConfiguration(
        connectTimeout: Duration,
        maximumConnections: Int,
        startupParameters: [(String, String)] = []
    ) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = PostgresClient.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)",
                username: username,
                password: password,
                database: database
            )
        } else {
            configuration = PostgresClient.Configuration(
                host: host ?? "localhost",
                port: port,
                username: username,
                password: password,
                database: database,
                tls: tls
            )
        }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.additionalStartupParameters = [("application_name", "haapi-gateway")] + startupParameters
        return configuration
    }

    /// PostgresNIO's configuration of one connection to this URL, as the pool makes them (for ``PostgresConnectionProbe``).
    /// - Throws: when the TLS settings do not make a context (a trust roots file that does not load).
    func connectionConfiguration(connectTimeout: Duration) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = PostgresConnection.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)",
                username: username,
                password: password,
                database: database
            )
        } else {
            let connectionTLS: PostgresConnection.Configuration.TLS
            switch tlsChoice {
            case (false, _): connectionTLS = .disable
            case (true, let tls?) where tlsMode == .prefer: connectionTLS = .prefer(try NIOSSLContext(configuration: tls))
            case (true, let tls?): connectionTLS = .require(try NIOSSLContext(configuration: tls))
            case (true, nil): connectionTLS = .disable
            }
            configuration = PostgresConnection.Configuration(
                host: host ?? "localhost",
                port: port,
                username: username,
                password: password,
                database: database,
                tls: connectionTLS
            )
        }
        configuration.options.connectTimeout = .nanoseconds(
            Int64(connectTimeout.components.seconds) * 1_000_000_000 + connectTimeout.components.attoseconds / 1_000_000_000
        )
        configuration.options.additionalStartupParameters = [("application_name", "haapi-gateway")]
        return configuration
    }

    private var tls: PostgresClient.Configuration.TLS {
        switch tlsChoice {
        case (true, let tls?): tlsMode == .prefer ? .prefer(tls) : .require(tls)
        default: .disable
        }
    }

    /// Whether the connection is encrypted, and with which settings: libpq's `sslmode` as PostgresNIO takes it
    /// (`prefer` tries TLS and falls back; `require` checks nothing, `verify-ca` the chain, `verify-full` the chain and
    /// the host name).
    private var tlsChoice: (encrypted: Bool, configuration: TLSConfiguration?) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustRootsFile { tls.trustRoots = .file(trustRootsFile) }
        switch tlsMode {
        case .disable:
            return (false, nil)
        case .prefer, .require:
            tls.certificateVerification = .none
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
        case .verifyFull:
            tls.certificateVerification = .fullVerification
        }
        return (true, tls)
    }
}
