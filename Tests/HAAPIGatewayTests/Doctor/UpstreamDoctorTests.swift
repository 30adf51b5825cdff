import Foundation
import HAAPI
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// `doctor` against the demo set up right and set up wrong in each way an operator's Curity can be: each wrong setup
/// fails (or warns) its own check, and names the Curity setting to change.
@Suite("Doctor against the demo upstream")
struct UpstreamDoctorTests {
    /// Runs the doctor against a fresh demo of `demo`, with the gateway's client configuration changed by `change`.
    static func examine(
        demo demoConfiguration: DemoServerConfiguration = .strict,
        publicURL: URL? = nil,
        _ change: (inout HAAPIClientConfiguration, RunningDemoServer) -> Void = { _, _ in }
    ) async throws -> DoctorReport {
        let demo = try await DemoServer.start(configuration: demoConfiguration)
        var configuration = GatewayHarness.upstream(demo: demo)
        change(&configuration, demo)
        let report = await UpstreamDoctor(configuration: configuration, publicURL: publicURL).examine()
        await demo.shutdown()
        return report
    }

    /// The demo's endpoints, named as an operator names them for a server without metadata, with `issuer` the `iss`.
    static func namedEndpoints(of demo: RunningDemoServer, issuer: String) -> HAAPIEndpoints {
        let base = demo.baseURL.absoluteString
        return HAAPIEndpoints(
            authorization: URL(string: base + "/oauth/v2/oauth-authorize")!,
            token: URL(string: base + "/oauth/v2/oauth-token")!,
            issuer: issuer,
            keySet: URL(string: base + "/oauth/v2/oauth-anonymous/jwks")!
        )
    }

    static func check(_ name: String, in report: DoctorReport) throws -> DoctorCheck {
        try #require(report.checks.first { $0.name == name }, "\(report.text)")
    }

    @Test("set up right: every check passes, the notes say what to register, and a sign-in can start")
    func setUpRight() async throws {
        let report = try await Self.examine(publicURL: URL(string: "https://login.example.com"))
        #expect(report.signInCanStart, "\(report.text)")
        #expect(report.exitStatus == 0)
        #expect(
            report.checks.map(\.name)
                == [
                    "discovery", "client-authentication", "haapi-token", "dpop-nonces", "dpop-bound-codes", "authorize", "first-step",
                    "id-token-algorithms", "id-token-keys", "external-browser", "token-bound-codes",
                ]
        )
        let codes = try Self.check("dpop-bound-codes", in: report)
        #expect(codes.result == .note, "the strict demo requires dpop_jkt, which the gateway sends again at once")
        #expect(codes.found.contains("authorization-code-dpop-binding"), "\(codes.found)")
        #expect(report.checks.filter { $0.result == .passed }.count == 7)
        let nonces = try Self.check("dpop-nonces", in: report)
        #expect(nonces.result == .note, "what the flow showed of nonces is said, not passed")
        #expect(nonces.found.contains("the server sent a DPoP nonce"))
        #expect(try Self.check("id-token-keys", in: report).found.contains("1 key the gateway can use (verifying ES256)"))
        #expect(try Self.check("first-step", in: report).found.hasPrefix("authentication-step: a choice of"))
        #expect(
            try Self.check("external-browser", in: report).fix?.contains(
                "register https://login.example.com/external-browser/return in profiles/profile{token-service}/settings/authorization-server/client-store/config-backed/client{demo-gateway}/redirect-uris"
            ) == true
        )
    }

    /// The issuer a report's upstream would have had: its configured base URL (the demo's root) with the anonymous endpoint.
    static func demoIssuer(_ report: DoctorReport) -> String { report.upstream + "/oauth/v2/oauth-anonymous" }

    @Test("the host's root as upstream.baseURL: discovery fails, naming the issuer found under the anonymous endpoint")
    func hostRoot() async throws {
        let report = try await Self.examine { configuration, demo in configuration.baseURL = demo.baseURL }
        let discovery = try Self.check("discovery", in: report)
        #expect(discovery.result == .failed)
        #expect(discovery.found.contains("there is one at") && discovery.found.contains("/oauth/v2/oauth-anonymous/.well-known/openid-configuration"))
        #expect(discovery.fix == "set upstream.baseURL to \(Self.demoIssuer(report)), the issuer.")
        #expect(report.checks.count == 1 && report.exitStatus == 1)
    }

    @Test("metadata not exposed: discovery fails naming Curity's expose-metadata; with the endpoints named every check passes")
    func metadataNotExposed() async throws {
        var hidden = DemoServerConfiguration.strict
        hidden.publishesMetadata = false
        let report = try await Self.examine(demo: hidden)
        let discovery = try Self.check("discovery", in: report)
        #expect(discovery.result == .failed)
        #expect(discovery.fix?.contains("profiles/profile{token-service}/settings/authorization-server/openid-connect/expose-metadata") == true)
        let named = try await Self.examine(demo: hidden) { configuration, demo in
            configuration.endpoints = Self.namedEndpoints(of: demo, issuer: demo.issuer)
        }
        #expect(named.signInCanStart, "\(named.text)")
        #expect(try Self.check("discovery", in: named).found.hasPrefix("not used: the endpoints are named"))
        #expect(try Self.check("id-token-algorithms", in: named).result == .note, "no discovery, so no advertised algorithms")
    }

    @Test("a refused client secret: client authentication fails, naming the client's secret first and allow-without-attestation second")
    func wrongSecret() async throws {
        let report = try await Self.examine { configuration, _ in configuration.clientAuthentication = .secretBasic("not-the-secret") }
        let check = try Self.check("client-authentication", in: report)
        #expect(check.result == .failed)
        #expect(check.found.contains("invalid_client"))
        #expect(
            check.fix?.hasPrefix(
                "most likely the client must exist with this id and authenticate as upstream.clientAuthentication says (secret-basic): profiles/profile{token-service}/settings/authorization-server/client-store/config-backed/client{demo-gateway}/secret (Admin UI: OAuth & OpenID Connect → Clients → demo-gateway → Overview → Capabilities → Code Flow → Client Authentication; older Admin UIs: Profiles → Token Service → Clients)"
            ) == true,
            "\(check.line)"
        )
        #expect(check.fix?.contains("; or the client must attest, which a server cannot: it needs ") == true)
        #expect(check.fix?.contains("client{demo-gateway}/capabilities/haapi/allow-without-attestation = true") == true)
        #expect(!report.checks.contains { $0.name == "authorize" }, "nothing is asked after the token is refused")
    }

    @Test("legacy DPoP: the nonce check says no nonce was sent, as a note; with bindTokensToDPoP it warns, naming use-legacy-dpop")
    func legacyDPoP() async throws {
        let report = try await Self.examine(demo: DemoServerConfiguration())
        let check = try Self.check("dpop-nonces", in: report)
        #expect(check.result == .note)
        #expect(check.found.contains("the server sent no DPoP nonce in this flow"))
        #expect(report.signInCanStart)
        let bound = try await Self.examine(demo: DemoServerConfiguration()) { configuration, _ in configuration.bindTokensToDPoP = true }
        let warning = try Self.check("dpop-nonces", in: bound)
        #expect(warning.result == .warning, "\(warning.line)")
        #expect(
            warning.fix
                == "check profiles/profile{token-service}/settings/authorization-server/client-store/config-backed/client{demo-gateway}/capabilities/haapi/use-legacy-dpop = false beside profiles/profile{token-service}/settings/authorization-server/client-store/config-backed/client{demo-gateway}/capabilities/haapi/issue-token-bound-authorization-code = true."
        )
    }

    @Test("a redirect URI that is not registered: the authorize request fails, naming redirect-uris and the URI")
    func unregisteredRedirectURI() async throws {
        let report = try await Self.examine { configuration, _ in configuration.redirectURI = "https://gateway.example/unregistered" }
        let check = try Self.check("authorize", in: report)
        #expect(check.result == .failed)
        #expect(check.found.contains("the redirect URI https://gateway.example/unregistered is not registered"))
        #expect(check.fix?.contains("client{demo-gateway}/redirect-uris") == true)
    }

    @Test("a scope the client may not have: the authorize request fails, naming it")
    func scopeNotAllowed() async throws {
        let report = try await Self.examine { configuration, _ in configuration.scopes = ["openid", "accounts"] }
        let check = try Self.check("authorize", in: report)
        #expect(check.result == .failed)
        #expect(check.found.contains("invalid_scope"))
        #expect(
            check.fix?.contains(
                "the client's scopes must include each of openid accounts (accounts is not advertised in the server's scopes_supported: not defined in the profile, or a prefix scope (is-prefix) or one left out of the metadata (expose-in-metadata false))"
            ) == true,
            "\(check.line)"
        )
        #expect(check.fix?.contains("client{demo-gateway}/scope") == true)
    }

    @Test("ID-token algorithms the gateway cannot validate: only those fail; some of them warn")
    func idTokenAlgorithms() async throws {
        var ed448 = DemoServerConfiguration.strict
        ed448.advertisedIDTokenAlgorithms = ["Ed448"]
        let only = try Self.check("id-token-algorithms", in: try await Self.examine(demo: ed448))
        #expect(only.result == .failed)
        #expect(only.fix?.contains("token-issuers/default-token-issuer/jwt-issuer-settings") == true)
        var mixed = DemoServerConfiguration.strict
        mixed.advertisedIDTokenAlgorithms = ["ES256", "HS256"]
        let some = try Self.check("id-token-algorithms", in: try await Self.examine(demo: mixed))
        #expect(some.result == .warning)
        #expect(some.found.contains("cannot validate HS256"))
        var eddsa = DemoServerConfiguration.strict
        eddsa.idTokenSigningAlgorithm = .ed25519
        let ed25519 = try Self.check("id-token-algorithms", in: try await Self.examine(demo: eddsa))
        #expect(ed25519.result == .passed)
        #expect(ed25519.found.contains("(EdDSA only with Ed25519 keys: see id-token-keys)"))
    }

    @Test(
        "an external https issuer reached through an internal URL: every check passes; without the internal URL it is unreachable, and the fix names upstream.internalURL"
    )
    func internalURL() async throws {
        var external = DemoServerConfiguration.strict
        external.publicBaseURL = "https://idsvr.example.test"
        let report = try await Self.examine(demo: external) { configuration, demo in configuration.internalURL = demo.listeningURL }
        #expect(report.signInCanStart, "\(report.text)")
        #expect(
            try Self.check("discovery", in: report).found.hasPrefix(
                "https://idsvr.example.test/oauth/v2/oauth-anonymous/.well-known/openid-configuration names the issuer https://idsvr.example.test/oauth/v2/oauth-anonymous"
            )
        )
        // The same demo and client without the internal URL: the external name (.test is reserved, RFC 2606) reaches
        // nothing, so the one check is reachability, and its fix says to set the internal URL.
        let unreached = try await Self.examine(demo: external)
        #expect(unreached.upstream == "https://idsvr.example.test/oauth/v2/oauth-anonymous")
        #expect(unreached.checks.map(\.name) == ["reachable"], "\(unreached.text)")
        #expect(unreached.exitStatus == 1)
        let reachable = try Self.check("reachable", in: unreached)
        #expect(reachable.result == .failed)
        #expect(reachable.found.hasPrefix("the upstream could not be reached: "), "\(reachable.found)")
        #expect(
            reachable.fix?.contains("(or set upstream.internalURL to the URL this machine reaches the server by)") == true,
            "\(reachable.fix ?? "")"
        )
    }

    @Test("bindTokensToDPoP on: no token-bound-codes note")
    func bindTokens() async throws {
        let report = try await Self.examine { configuration, _ in configuration.bindTokensToDPoP = true }
        #expect(!report.checks.contains { $0.name == "token-bound-codes" })
    }

    @Test("an authorize refusal is read by its error: unauthorized_client names the Code Flow capability, others the three settings")
    func authorizeRefusals() throws {
        let doctor = UpstreamDoctor(
            configuration: HAAPIClientConfiguration(
                baseURL: URL(string: "https://idsvr.example/oauth/v2/oauth-anonymous")!,
                clientID: "gw",
                clientAuthentication: .secretBasic("s"),
                redirectURI: "haapi:start",
                scopes: ["openid"]
            ),
            publicURL: nil
        )
        func problem(_ error: String, _ description: String) throws -> Problem {
            try Problem(
                json: .object([
                    "type": .string("https://curity.se/problems/error-authorization-response"), "error": .string(error),
                    "error_description": .string(description),
                ]),
                httpStatus: 400
            )
        }
        let code = doctor.authorizeRefused(try problem("unauthorized_client", "The client may not use this flow"), scopesSupported: [])
        #expect(code.result == .failed)
        #expect(code.fix?.contains("client{gw}/capabilities/code") == true)
        let other = doctor.authorizeRefused(try problem("access_denied", "Denied \u{1B}[31m"), scopesSupported: [])
        #expect(other.found.hasPrefix("the authorize request (redirect_uri haapi:start, scope openid) was refused (access_denied: Denied [31m)"))
        #expect(other.fix?.hasPrefix("most likely the redirect URI haapi:start is not among the client's redirect URIs: ") == true)
        #expect(other.fix?.contains("; or a scope of openid is not among the client's scopes: ") == true)
        #expect(
            other.fix?.contains(
                "; or the client lacks the Code Flow capability: profiles/profile{token-service}/settings/authorization-server/client-store/config-backed/client{gw}/capabilities/code"
            ) == true
        )
        let undefined = doctor.authorizeRefused(try problem("invalid_request", "Bad request"), scopesSupported: ["email"])
        #expect(undefined.fix?.hasPrefix("most likely the redirect URI haapi:start") == true, "a scope not advertised is not ranked first")
        #expect(
            undefined.fix?.contains(
                "; or a scope of openid is not among the client's scopes (openid is not advertised in the server's scopes_supported: not defined in the profile, or a prefix scope (is-prefix) or one left out of the metadata (expose-in-metadata false))"
            ) == true,
            "\(undefined.line)"
        )
        #expect(!other.found.contains("\u{1B}"), "upstream text is printed without control characters")
        let unknownProblem = doctor.authorizeRefused(
            try Problem(json: .object(["type": .string("https://curity.se/problems/unexpected"), "title": .string("Oops")]), httpStatus: 500),
            scopesSupported: []
        )
        #expect(unknownProblem.found.contains("https://curity.se/problems/unexpected (Oops)"))
    }

    @Test("the report as text and as JSON")
    func rendering() throws {
        let report = DoctorReport(
            upstream: "https://idsvr.example/oauth/v2/oauth-anonymous",
            clientID: "gw",
            checks: [
                .passed("discovery", "found."), .failed("haapi-token", "refused.", fix: "allow it."),
                .note("external-browser", "x.", fix: "register y."),
            ]
        )
        #expect(
            report.text
                == "haapi-gateway doctor: https://idsvr.example/oauth/v2/oauth-anonymous (client gw)\n✓ discovery: found.\n✗ haapi-token: refused. Fix: allow it.\n→ external-browser: x. To do: register y.\nSign-ins cannot start: change what the ✗ lines say, then run doctor again.\n"
        )
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(json["signInCanStart"] as? Bool == false)
        #expect((json["checks"] as? [[String: Any]])?[1]["result"] as? String == "failed")
        #expect(DoctorText.quoted("a\u{1B}[31mb\nc" + String(repeating: "x", count: 300)).count == 200)
        #expect(!DoctorText.quoted("a\u{1B}[31mb\nc").contains("\u{1B}"))
    }
}
