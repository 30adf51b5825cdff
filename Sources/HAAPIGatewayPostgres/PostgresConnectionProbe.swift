import Foundation
import HAAPIGateway
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Names what stops a connection to the database, within seconds. PostgresNIO's pool keeps trying a connection that
/// fails and an operation only learns that its time ran out ("no answer from the database"); when that happens the
/// gateway opens one connection itself and says what it met: TLS required but not offered, a certificate not trusted,
/// a refused password or user, a database that does not exist, nothing listening, a name that does not resolve.
enum PostgresConnectionProbe {
    /// What stops a connection to `url` now, in words for `/readyz` and a log line (no password); nil when a connection
    /// opens (the database answers, the trouble is elsewhere) or nothing can be said.
    static func diagnose(_ url: PostgresURL, within limit: Duration) async -> String? {
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try url.connectionConfiguration(connectTimeout: limit)
        } catch {
            let root = url.trustRootsFile ?? "none"
            return "the TLS settings of \(ConfigurationKey.sessionsPostgresURL.path) cannot be used (sslrootcert \(root) does not load)"
        }
        let logger = Logger(label: "haapi-gateway.postgres.probe", factory: { _ in SwiftLogNoOpLogHandler() })
        let attempt: Result<PostgresConnection, any Error>? = await withTaskGroup(of: Result<PostgresConnection, any Error>?.self) { group in
            group.addTask {
                do {
                    return .success(
                        try await PostgresConnection.connect(
                            on: MultiThreadedEventLoopGroup.singleton.next(),
                            configuration: configuration,
                            id: 0,
                            logger: logger
                        )
                        .get()
                    )
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit + .seconds(1))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            // A connection that comes after the time ran out is closed, never dropped open (PostgresNIO requires it).
            for await late in group {
                if case .success(let connection)? = late { try? await connection.close() }
            }
            return first
        }
        switch attempt {
        case .success(let connection)?:
            try? await connection.close()
            return nil
        case .failure(let error)?:
            return describe(error, url: url)
        case nil:
            return "no answer from \(place(url)) within \(limit.components.seconds) s (a firewall, or the wrong address)"
        }
    }

    /// Words for a failed connection.
    static func describe(_ error: any Error, url: PostgresURL) -> String? {
        guard let error = error as? PSQLError else { return connectionFailure(error, url: url) }
        switch error.code {
        case .sslUnsupported:
            let implied = url.tlsMode == .verifyFull ? " (verify-full is what a URL without sslmode means)" : ""
            return
                "the database at \(place(url)) does not offer TLS, and sslmode=\(url.tlsMode.rawValue) requires it\(implied): turn TLS on at the server, or, for a server on this machine or a network you trust, add ?sslmode=disable to \(ConfigurationKey.sessionsPostgresURL.path)"
        case .failedToAddSSLHandler:
            return "TLS with the database at \(place(url)) could not be set up (sslmode=\(url.tlsMode.rawValue))"
        case .unsupportedAuthMechanism:
            return "the database at \(place(url)) asks for an authentication method the gateway does not support (use scram-sha-256 or md5)"
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = String((error.serverInfo?[.message] ?? "").prefix(160))
            switch state {
            case "28P01": return "the database at \(place(url)) refused the password of user \(url.username)"
            case "28000": return "the database at \(place(url)) refused user \(url.username): \(message)"
            case "3D000": return "the database \(url.database ?? url.username) does not exist at \(place(url))"
            case "57P03": return "the database at \(place(url)) is starting up or shutting down"
            case "53300": return "the database at \(place(url)) has no connection slot left (max_connections)"
            default: return "the database at \(place(url)) refused the connection (SQLSTATE \(state)): \(message)"
            }
        default:
            return error.underlying.flatMap { connectionFailure($0, url: url) }
        }
    }

    /// Words for a connection that was not made at all.
    private static func connectionFailure(_ error: any Error, url: PostgresURL) -> String? {
        switch error {
        case let failure as NIOConnectionError:
            if let named = failure.connectionErrors.lazy.compactMap({ connectionFailure($0.error, url: url) }).first { return named }
            if failure.dnsAError != nil || failure.dnsAAAAError != nil { return "the host name \(url.host ?? "") could not be resolved" }
            return nil
        case let io as IOError where io.errnoCode == ECONNREFUSED:
            return "nothing listens at \(place(url)) (connection refused)"
        case is SocketAddressError:
            return "the host name \(url.host ?? "") could not be resolved"
        case is NIOSSLError, is BoringSSLError:
            return
                "the TLS handshake with the database at \(place(url)) failed (sslmode=\(url.tlsMode.rawValue): its certificate is not trusted, or not for this host name; sslrootcert names a CA)"
        case is ChannelError:
            return "no answer from \(place(url)) (a firewall, or the wrong address)"
        default:
            return nil
        }
    }

    private static func place(_ url: PostgresURL) -> String {
        url.socketDirectory.map { "socket \($0)" } ?? "\(url.host ?? "localhost"):\(url.port)"
    }
}
