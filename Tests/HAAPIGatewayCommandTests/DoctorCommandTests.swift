import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `haapi-gateway doctor` run as an operator runs it: against a demo upstream set up right and set up wrong, as text and
/// JSON, with its exit statuses (0 a sign-in can start, 1 something blocks it, 78 a bad configuration).
@Suite("doctor command", .startsPrograms())
struct DoctorCommandTests {
    /// Runs `body` with the issuer of a `haapi-gateway demo-server` started with `flags`.
    static func withDemo(_ flags: [String], _ body: (String) async throws -> Void) async throws {
        let demo = try RunningGateway(["demo-server", "--port", "0", "--log-level", "error"] + flags)
        do {
            let issuer = try await demo.waitForOutput(#"Demo HAAPI server: issuer (http://127\.0\.0\.1:\d+/oauth/v2/oauth-anonymous)"#)
            try await body(issuer)
        } catch {
            demo.signal(SIGTERM)
            _ = try? await demo.waitForExit(timeout: .seconds(10))
            throw error
        }
        demo.signal(SIGTERM)
        _ = try await demo.waitForExit(timeout: .seconds(10))
    }

    static func doctor(_ issuer: String, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await runGateway(
            ["doctor", "--upstream", issuer, "--client-id", DemoServer.clientID, "--client-secret", DemoServer.clientSecret] + extra,
            environment: environment,
            directory: Repository.root
        )
    }

    @Test("set up right (strict): every line ✓ or →, 'A sign-in can start.', exit 0")
    func setUpRight() async throws {
        try await Self.withDemo(["--strict"]) { issuer in
            let result = try await Self.doctor(issuer, ["--public-url", "https://login.example.com"])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n")
            #expect(lines.first == "haapi-gateway doctor: \(issuer) (client demo-gateway)")
            #expect(lines.last == "A sign-in can start.")
            #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("✓ ") || $0.hasPrefix("→ ") })
            #expect(result.standardOutput.contains("→ dpop-nonces: the server sent a DPoP nonce"))
            #expect(result.standardOutput.contains("→ dpop-bound-codes: the server refused the authorize request without dpop_jkt"))
            #expect(result.standardOutput.contains("✓ id-token-keys: the JWKS at \(issuer)/jwks holds 1 key the gateway can use (verifying ES256)."))
            #expect(!result.standardOutput.contains(DemoServer.clientSecret), "no secret in the report")
        }
    }

    /// Curity 11.4's `authorization-code-dpop-binding` = `required`: a request without `dpop_jkt` is refused, and doctor
    /// names the setting from that refusal; with `upstream.bindTokensToDPoP` the request carries it, and nothing is said.
    @Test("a required authorization-code-dpop-binding: doctor names the setting and upstream.bindTokensToDPoP; with it set, no refusal to read")
    func aRequiredCodeBindingIsNamed() async throws {
        try await Self.withDemo(["--authorization-code-dpop-binding", "required"]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(result.status == 0, "\(result.standardOutput)")
            let line = result.standardOutput.split(separator: "\n").first { $0.hasPrefix("→ dpop-bound-codes:") }.map(String.init)
            for phrase in ["without dpop_jkt (invalid_request)", "authorization-code-dpop-binding", "is required", "upstream.bindTokensToDPoP: true"]
            {
                #expect(line?.contains(phrase) == true, "\(phrase): \(result.standardOutput)")
            }
            let bound = try await Self.doctor(issuer, environment: ["HAAPI_GATEWAY_UPSTREAM_BIND_TOKENS_TO_DPOP": "true"])
            #expect(bound.status == 0, "\(bound.standardOutput)")
            #expect(!bound.standardOutput.contains("dpop-bound-codes"), "\(bound.standardOutput)")
        }
        try await Self.withDemo([]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(!result.standardOutput.contains("dpop-bound-codes"), "client-requested: nothing refused, nothing said")
        }
    }

    @Test("set up wrong (HAAPI without attestation refused): the ✗ line names allow-without-attestation, exit 1; --json says the same")
    func setUpWrong() async throws {
        try await Self.withDemo(["--strict", "--require-attestation"]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("✗ haapi-token: the token endpoint refused the HAAPI token (HTTP 400 unauthorized_client"))
            #expect(result.standardOutput.contains("capabilities/haapi/allow-without-attestation = true"))
            #expect(result.standardOutput.hasSuffix("Sign-ins cannot start: change what the ✗ lines say, then run doctor again.\n"))
            let json = try await Self.doctor(issuer, ["--json"])
            #expect(json.status == 1)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            #expect(document["signInCanStart"] as? Bool == false)
            let failed = (document["checks"] as? [[String: Any]])?.filter { $0["result"] as? String == "failed" }.compactMap { $0["name"] as? String }
            #expect(failed == ["haapi-token"])
        }
    }

    @Test(
        "demo-server's switches for doctor's readings, as curity-setup.md names them: attestation refused as invalid_client, proofs checked elsewhere, an Ed448 key, RFC 8414 metadata only, an issuer override, a redirect URI refused by a bare problem"
    )
    func readingSwitches() async throws {
        try await Self.withDemo(["--strict", "--require-attestation", "--attestation-refused-as", "invalid_client"]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(result.status == 1)
            #expect(
                result.standardOutput.contains("✗ client-authentication: the token endpoint refused the client demo-gateway (HTTP 401 invalid_client")
            )
            #expect(result.standardOutput.contains("capabilities/haapi/allow-without-attestation = true"), "\(result.standardOutput)")
        }
        try await Self.withDemo(["--strict", "--proof-base-url", "https://idsvr.example.test"]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(result.status == 1)
            #expect(
                result.standardOutput.contains("✗ haapi-token: the token endpoint refused the DPoP proof (HTTP 400 invalid_dpop_proof"),
                "\(result.standardOutput)"
            )
        }
        try await Self.withDemo(["--strict", "--ed448-signing-key"]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(result.status == 1)
            #expect(
                result.standardOutput.contains("✗ id-token-keys: the JWKS at \(issuer)/jwks holds 0 keys the gateway can use and 1 Ed448 key"),
                "\(result.standardOutput)"
            )
        }
        try await Self.withDemo(["--strict", "--no-metadata", "--oauth-metadata"]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(result.status == 0, "\(result.standardOutput)")
            #expect(
                result.standardOutput.contains("✓ discovery: no OpenID Connect metadata at \(issuer)/.well-known/openid-configuration; the RFC 8414")
            )
        }
        try await Self.withDemo(["--strict", "--issuer-override", "/custom-issuer"]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("authorization-server/issuer-override makes it"), "\(result.standardOutput)")
        }
        try await Self.withDemo(["--strict", "--redirect-uri-refusal", "invalid-request-problem"]) { issuer in
            let result = try await Self.doctor(issuer, ["--redirect-uri", "https://gateway.example/unregistered"])
            #expect(result.status == 1)
            #expect(
                result.standardOutput.contains("was answered by a problem: https://curity.se/problems/invalid-request"),
                "\(result.standardOutput)"
            )
        }
    }

    @Test("demo-server refuses a reading switch that cannot apply, in one line")
    func readingSwitchValidation() async throws {
        let result = try await runGateway(["demo-server", "--attestation-refused-as", "invalid_client"], directory: Repository.root)
        #expect(result.status != 0)
        #expect(result.standardError.contains("--attestation-refused-as needs --require-attestation"), "\(result.standardError)")
    }

    @Test("metadata not exposed: the ✗ discovery line names openid-connect/expose-metadata")
    func metadataNotExposed() async throws {
        try await Self.withDemo(["--no-metadata"]) { issuer in
            let result = try await Self.doctor(issuer)
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("✗ discovery: no discovery document at \(issuer)/.well-known/openid-configuration (HTTP 404)"))
            #expect(result.standardOutput.contains("authorization-server/openid-connect/expose-metadata"))
        }
    }

    @Test("a bad configuration: every problem listed, exit 78, nothing asked of any upstream")
    func badConfiguration() async throws {
        // Where the doctor would ask: its requests go to upstream.internalURL (itself valid: plain http to a loopback
        // address), a listener that never answers and counts the connections made to it.
        let upstream = try SilentPeer(.silent)
        defer { upstream.stop() }
        // One connection of the test's own, made and closed before the doctor runs: the count sees a client that has gone.
        try RawConnection(to: upstream.port).close()
        let result = try await runGateway(
            ["doctor", "--upstream", "http://idsvr.example.com/oauth/v2/oauth-anonymous"],
            environment: ["HAAPI_GATEWAY_UPSTREAM_INTERNAL_URL": "http://127.0.0.1:\(upstream.port)"],
            directory: Repository.root
        )
        #expect(result.status == 78, "\(result.standardError)")
        #expect(result.standardError.contains("upstream.baseURL (flag --upstream): must use https"))
        #expect(result.standardError.contains("upstream.clientID: is required"))
        #expect(result.standardOutput.isEmpty)
        #expect(try await upstream.connectionsMadeSoFar() == 1, "only the test's own connection: the doctor connected to the upstream")
    }

    @Test("without an upstream it checks the embedded demo: exit 0")
    func embeddedDemo() async throws {
        let result = try await runGateway(["doctor"], directory: Repository.root)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("✓ first-step: authentication-step"))
    }
}
