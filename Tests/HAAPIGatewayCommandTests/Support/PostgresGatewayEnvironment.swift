import Foundation

@testable import GatewayTestSupport

/// The environment of a `serve` keeping its sign-ins in PostgreSQL.
enum PostgresGatewayEnvironment {
    /// A gateway keeping its sign-ins in a PostgreSQL database at 127.0.0.1:`port` (a key file of its own), draining 1 s.
    static func make(port: Int) throws -> [String: String] {
        let keys = try Repository.temporaryDirectory().appendingPathComponent("keys")
        try Data(repeating: 7, count: 32).base64EncodedString().write(to: keys, atomically: true, encoding: .utf8)
        return [
            "HAAPI_GATEWAY_SESSIONS_STORE": "postgres",
            "HAAPI_GATEWAY_SESSIONS_POSTGRES_URL": "postgres://haapi:not-a-password@127.0.0.1:\(port)/haapi?sslmode=disable",
            "HAAPI_GATEWAY_SESSIONS_ENCRYPTION_KEYS_FILE": keys.path,
            "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "1",
        ]
    }
}
