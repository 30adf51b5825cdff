import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// `upstream.baseURL` as the issuer, `upstream.internalURL`, and `upstream.issuer` with `upstream.endpoints.*` for a
/// server without metadata: what loads, and every mistake named under its key.
@Suite("Configuration: where the upstream is")
struct UpstreamAddressConfigurationTests {
    static let base = [
        "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://login.example.com/oauth/v2/oauth-anonymous", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "haapi-gateway",
        "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": "s3cret",
    ]

    static func load(_ environment: [String: String]) throws(ConfigurationError) -> HAAPIClientConfiguration? {
        let configuration = try GatewayConfiguration.load(file: nil, environment: base.merging(environment) { $1 })
        guard case .haapi(let client) = configuration.upstream else { return nil }
        return client
    }

    static func problems(_ environment: [String: String], file: String? = nil) -> [String] {
        do {
            _ = try GatewayConfiguration.load(file: file, environment: base.merging(environment) { $1 })
            return []
        } catch {
            return error.problems
        }
    }

    @Test("an internal URL: any https origin, or http on loopback; kept apart from the issuer, and in the summary")
    func internalURL() throws {
        let client = try #require(try Self.load(["HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL": "https://curity-runtime.identity.svc:8443"]))
        #expect(client.baseURL.absoluteString == "https://login.example.com/oauth/v2/oauth-anonymous")
        #expect(client.internalURL?.absoluteString == "https://curity-runtime.identity.svc:8443")
        #expect(try Self.load(["HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL": "http://127.0.0.1:8443"])?.internalURL != nil)
        let summary = try GatewayConfiguration.load(
            file: nil,
            environment: Self.base.merging(["HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL": "http://127.0.0.1:8443"]) { $1 }
        ).summary
        #expect(
            summary.contains {
                $0.hasPrefix(
                    "upstream: issuer https://login.example.com/oauth/v2/oauth-anonymous reached through http://127.0.0.1:8443, client haapi-gateway"
                )
            }
        )
        #expect(
            Self.problems(["HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL": "http://curity-runtime.identity.svc:8443"])
                == [
                    "upstream.internalURL (environment variable HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL): must use https (plain http is accepted for loopback addresses only: the client's credentials and the person's sign-in go over it)"
                ]
        )
        #expect(
            Self.problems(["HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL": "https://curity:8443/prefix"])
                == [
                    "upstream.internalURL (environment variable HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL): must be an origin only (scheme, host and port): requests keep the paths of upstream.baseURL's URLs"
                ]
        )
    }

    @Test("endpoints named in the file as a mapping: no discovery, the issuer defaults to the base URL without its trailing slash")
    func endpointsInTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("address-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gateway.yaml")
        try """
        upstream:
          baseURL: https://login.example.com/oauth/v2/oauth-anonymous/
          endpoints:
            authorization: https://login.example.com/oauth/v2/oauth-authorize
            token: https://login.example.com/oauth/v2/oauth-token
            jwks: https://login.example.com/oauth/v2/oauth-anonymous/jwks
        """.write(to: file, atomically: true, encoding: .utf8)
        let configuration = try GatewayConfiguration.load(
            file: file.path,
            environment: ["HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c", "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": "s"]
        )
        guard case .haapi(let client) = configuration.upstream else {
            Issue.record("a real upstream")
            return
        }
        let endpoints = try #require(client.endpoints)
        #expect(endpoints.issuer == "https://login.example.com/oauth/v2/oauth-anonymous")
        #expect(endpoints.token.absoluteString == "https://login.example.com/oauth/v2/oauth-token")
        #expect(endpoints.keySet?.absoluteString == "https://login.example.com/oauth/v2/oauth-anonymous/jwks")
        #expect(endpoints.revocation == nil && endpoints.userinfo == nil)
        #expect(
            configuration.summary.contains {
                $0.contains(
                    "endpoints named (no discovery; issuer https://login.example.com/oauth/v2/oauth-anonymous, authorization https://login.example.com/oauth/v2/oauth-authorize, token https://login.example.com/oauth/v2/oauth-token, jwks https://login.example.com/oauth/v2/oauth-anonymous/jwks)"
                )
            }
        )

        try """
        upstream:
          baseURL: https://login.example.com/oauth/v2/oauth-anonymous
          endpoints:
            tokn: https://login.example.com/oauth/v2/oauth-token
        """.write(to: file, atomically: true, encoding: .utf8)
        #expect(Self.problems([:], file: file.path).first == "\(file.path):4: unknown key 'upstream.endpoints.tokn' (did you mean 'token'?)")
    }

    @Test("endpoints from the environment, with an issuer of their own")
    func endpointsFromTheEnvironment() throws {
        let client = try #require(
            try Self.load([
                "HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_AUTHORIZATION": "https://login.example.com/authorize",
                "HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_TOKEN": "https://login.example.com/token",
                "HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_JWKS": "https://login.example.com/jwks",
                "HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_REVOCATION": "https://login.example.com/revoke",
                "HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_USERINFO": "https://login.example.com/userinfo",
                "HAAPI_GATEWAY_UPSTREAM_ISSUER": "https://login.example.com/issuer",
            ])
        )
        #expect(client.endpoints?.issuer == "https://login.example.com/issuer")
        #expect(client.endpoints?.named.map(\.name) == ["authorization", "token", "revocation", "jwks", "userinfo"])
    }

    @Test("named endpoints need authorization and token, jwks with openid, https, and the external origin with an internal URL")
    func endpointMistakes() {
        let found = Self.problems([
            "HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_USERINFO": "http://login.example.com/userinfo",
            "HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_REVOCATION": "https://other.example.com/revoke",
            "HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL": "https://curity:8443",
        ])
        #expect(
            found == [
                "upstream.endpoints.revocation (environment variable HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_REVOCATION): must be on upstream.baseURL's origin https://login.example.com:443: with upstream.internalURL only that origin is reached",
                "upstream.endpoints.userinfo (environment variable HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_USERINFO): must use https (plain http is accepted for loopback addresses only)",
                "upstream.endpoints.userinfo (environment variable HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_USERINFO): must be on upstream.baseURL's origin https://login.example.com:443: with upstream.internalURL only that origin is reached",
                "upstream.endpoints.authorization: is required when the endpoints are named (the server's metadata is not read then)",
                "upstream.endpoints.token: is required when the endpoints are named (the server's metadata is not read then)",
                "upstream.endpoints.jwks: is required with the openid scope: ID tokens are validated against the server's keys (Curity: <issuer>/jwks)",
            ],
            "\(found.joined(separator: "\n"))"
        )
        #expect(
            Self.problems(["HAAPI_GATEWAY_UPSTREAM_ISSUER": "https://login.example.com/oauth/v2/oauth-anonymous"])
                == [
                    "upstream.issuer (environment variable HAAPI_GATEWAY_UPSTREAM_ISSUER): applies with upstream.endpoints only: with discovery the issuer is upstream.baseURL"
                ]
        )
    }

    @Test("an upstream given as a host name alone: the problem suggests the issuer a Curity there has")
    func hostAlone() {
        #expect(
            Self.problems(["HAAPI_GATEWAY_UPSTREAM_BASE_URL": "idsvr.example.com:8443"])
                == [
                    "upstream.baseURL (environment variable HAAPI_GATEWAY_UPSTREAM_BASE_URL): must be an absolute http or https URL, got \"idsvr.example.com:8443\" (for a Curity Identity Server at that host, its issuer: https://idsvr.example.com:8443/oauth/v2/oauth-anonymous)"
                ]
        )
        #expect(
            Self.problems(["HAAPI_GATEWAY_UPSTREAM_BASE_URL": "/oauth/v2/oauth-anonymous"])
                == [
                    "upstream.baseURL (environment variable HAAPI_GATEWAY_UPSTREAM_BASE_URL): must be an absolute http or https URL, got \"/oauth/v2/oauth-anonymous\""
                ]
        )
    }

    @Test("environment names of the new keys")
    func environmentNames() {
        let names = Dictionary(uniqueKeysWithValues: ConfigurationKey.all.map { ($0.path, $0.environmentName) })
        #expect(names["upstream.internalURL"] == "HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL")
        #expect(names["upstream.endpoints.jwks"] == "HAAPI_GATEWAY_UPSTREAM_ENDPOINTS_JWKS")
        #expect(names["upstream.issuer"] == "HAAPI_GATEWAY_UPSTREAM_ISSUER")
    }
}
