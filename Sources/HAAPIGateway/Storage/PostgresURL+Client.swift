import NIOSSL
import PostgresNIO

extension PostgresURL {
    /// PostgresNIO's client configuration for this URL: the TLS of its `sslmode`, the `application_name`
    /// `haapi-gateway` (so operators see it in `pg_stat_activity`), `startupParameters` (settings of its connections),
    /// and the connect timeout and pool size given.
    func clientConfiguration(connectTimeout: Duration, maximumConnections: Int, startupParameters: [(String, String)] = []) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = PostgresClient.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else {
            configuration = PostgresClient.Configuration(
                host: host ?? "localhost", port: port, username: username, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.additionalStartupParameters = [("application_name", "haapi-gateway")] + startupParameters
        return configuration
    }

    private var tls: PostgresClient.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustRootsFile { tls.trustRoots = .file(trustRootsFile) }
        switch tlsMode {
        case .disable:
            return .disable
        case .prefer:
            tls.certificateVerification = .none
            return .prefer(tls)
        case .require:
            tls.certificateVerification = .none
            return .require(tls)
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
            return .require(tls)
        case .verifyFull:
            tls.certificateVerification = .fullVerification
            return .require(tls)
        }
    }
}
