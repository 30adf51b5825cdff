import Foundation
import Testing

@testable import HAAPI

/// Where the client finds a Curity deployment and how it reaches it: discovery under the issuer (the anonymous endpoint),
/// a clear refusal naming where the metadata is, and an internal URL that carries every request while proofs, hrefs and
/// the `Host` header keep the external URL (notes 5, [OIDCMETA], [SRVCLIENT]).
@Suite("Deployment addressing")
struct DeploymentAddressingTests {
    typealias Up = TestUpstream

    static let anonymous = "/oauth/v2/oauth-anonymous"

    /// A discovery document for `issuer` whose endpoints live on `origin`.
    static func document(issuer: String, origin: String) -> ScriptedReply {
        .json(
            200,
            #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(origin)/oauth/authorize","token_endpoint":"\#(origin)/oauth/token","jwks_uri":"\#(issuer)/jwks","id_token_signing_alg_values_supported":["RS256","EdDSA"]}"#
        )
    }

    /// The error a client of `configuration` is refused with; nil (and the client shut down) when it connects.
    static func refusal(_ configuration: HAAPIClientConfiguration) async -> HAAPIError? {
        do throws(HAAPIError) {
            let client = try await HAAPIClient(configuration: configuration)
            try? await client.shutdown()
            return nil
        } catch {
            return error
        }
    }

    static func discovering(_ base: URL, issuerPath: String = anonymous) -> HAAPIClientConfiguration {
        var configuration = Up.configuration(base, explicitEndpoints: false)
        configuration.baseURL = URL(string: base.absoluteString + issuerPath)!
        return configuration
    }

    @Test("the metadata is read under the issuer, which it must name; the ID-token algorithms it lists are kept")
    func discoveryUnderTheIssuer() async throws {
        try await ScriptedUpstream.run({ request, _ in
            let origin = "http://\(request.header("Host") ?? "")"
            return request.path == Self.anonymous + "/.well-known/openid-configuration"
                ? Self.document(issuer: origin + Self.anonymous, origin: origin) : .json(404, "{}")
        }) { base, log in
            let client = try await HAAPIClient(configuration: Self.discovering(base))
            defer { Task { try? await client.shutdown() } }
            #expect(client.endpoints.issuer == base.absoluteString + Self.anonymous)
            #expect(client.endpoints.idTokenSigningAlgorithms == ["RS256", "EdDSA"])
            #expect(await log.requests.map(\.path) == [Self.anonymous + "/.well-known/openid-configuration"])
        }
    }

    @Test("a trailing slash on the configured issuer is no mismatch")
    func trailingSlashIsTheSameIssuer() async throws {
        try await ScriptedUpstream.run({ request, _ in
            let origin = "http://\(request.header("Host") ?? "")"
            return Self.document(issuer: origin + Self.anonymous, origin: origin)
        }) { base, _ in
            let client = try await HAAPIClient(configuration: Self.discovering(base, issuerPath: Self.anonymous + "/"))
            defer { Task { try? await client.shutdown() } }
            #expect(client.endpoints.issuer == base.absoluteString + Self.anonymous)
        }
    }

    @Test("a document that names another issuer is refused, naming both (OpenID Connect Discovery 1.0 §4.3)")
    func anotherIssuerIsRefused() async throws {
        try await ScriptedUpstream.run({ request, _ in
            let origin = "http://\(request.header("Host") ?? "")"
            return Self.document(issuer: "https://idsvr.example.test/oauth/v2/oauth-anonymous", origin: origin)
        }) { base, _ in
            let error = await Self.refusal(Self.discovering(base))
            #expect(error != nil, "the client was not refused")
            #expect(error?.code == .issuerMismatch)
            #expect(
                error?.message
                    == "the discovery document at \(base.absoluteString)\(Self.anonymous)/.well-known/openid-configuration names the issuer https://idsvr.example.test/oauth/v2/oauth-anonymous, not the configured \(base.absoluteString)\(Self.anonymous)"
            )
        }
    }

    @Test("the host's root as the issuer: refused, naming the document found under Curity's anonymous endpoint and its issuer")
    func hostRootNamesTheIssuerFound() async throws {
        try await ScriptedUpstream.run({ request, _ in
            let origin = "http://\(request.header("Host") ?? "")"
            return request.path == Self.anonymous + "/.well-known/openid-configuration"
                ? Self.document(issuer: origin + Self.anonymous, origin: origin) : .json(404, #"{"error":"not found"}"#)
        }) { base, _ in
            let error = await Self.refusal(Self.discovering(base, issuerPath: ""))
            #expect(error != nil, "the client was not refused")
            #expect(error?.code == .noDiscoveryDocument)
            #expect(
                error?.message
                    == "no discovery document at \(base.absoluteString)/.well-known/openid-configuration (HTTP 404), nor RFC 8414 metadata at \(base.absoluteString)/.well-known/oauth-authorization-server (HTTP 404); there is one at \(base.absoluteString)\(Self.anonymous)/.well-known/openid-configuration, naming the issuer \(base.absoluteString)\(Self.anonymous)"
            )
        }
    }

    @Test("no metadata anywhere: refused, saying where Curity publishes it and that it must be exposed")
    func noMetadataSaysWhereCurityPublishesIt() async throws {
        try await ScriptedUpstream.run({ _, _ in .json(404, "{}") }) { base, log in
            let error = await Self.refusal(Self.discovering(base, issuerPath: "/"))
            #expect(error != nil, "the client was not refused")
            #expect(error?.code == .noDiscoveryDocument)
            #expect(
                error?.message
                    == "no discovery document at \(base.absoluteString)/.well-known/openid-configuration (HTTP 404), nor RFC 8414 metadata at \(base.absoluteString)/.well-known/oauth-authorization-server (HTTP 404); Curity publishes its metadata under its anonymous endpoint, by default \(base.absoluteString)\(Self.anonymous), and only when the token service exposes it; otherwise name the endpoints"
            )
            #expect(await log.count == 3, "the configured place, its RFC 8414 place and Curity's, once each")
            let atAnonymous = await Self.refusal(Self.discovering(base))
            #expect(atAnonymous != nil, "the client was not refused")
            #expect(
                atAnonymous?.message.hasSuffix(
                    "Curity publishes them there only when the token service exposes its OpenID Connect metadata (or, for RFC 8414's, its authorization server metadata); otherwise name the endpoints"
                ) == true
            )
        }
    }

    @Test("an HTML page where the document should be is no discovery document")
    func htmlIsNoDocument() async throws {
        try await ScriptedUpstream.run({ _, _ in .json(200, "<html>welcome</html>", contentType: "text/html") }) { base, _ in
            let error = await Self.refusal(Self.discovering(base))
            #expect(error != nil, "the client was not refused")
            #expect(error?.code == .noDiscoveryDocument)
            #expect(error?.message.contains("answered with something that is not a discovery document") == true)
        }
    }

    /// An upstream whose external URL is `https://idsvr.example.test`, reached on its loopback listener: discovery and
    /// every step name the external URL, and an absolute href points there.
    static func externalUpstream(_ request: RecordedRequest, _ log: RequestLog) async -> ScriptedReply {
        let external = "https://idsvr.example.test"
        switch request.path {
        case anonymous + "/.well-known/openid-configuration": return document(issuer: external + anonymous, origin: external)
        case Up.tokenPath: return .haapiToken()
        case Up.authorizePath:
            return .step(
                #"{"type":"authentication-step","actions":[{"template":"form","kind":"login","model":{"href":"https://idsvr.example.test/authn/login","method":"POST","type":"application/x-www-form-urlencoded","fields":[{"name":"userName","type":"username"}]}},{"template":"form","kind":"other","model":{"href":"https://elsewhere.example.test/x","method":"GET"}}]}"#
            )
        default: return .step(Up.loginStep)
        }
    }

    @Test("an internal URL carries every request; proofs, the Host header and the hrefs followed keep the external URL; no other origin is reached")
    func internalURLCarriesRequestsWithTheExternalName() async throws {
        try await ScriptedUpstream.run(Self.externalUpstream) { base, log in
            var configuration = Up.configuration(base, explicitEndpoints: false)
            configuration.baseURL = URL(string: "https://idsvr.example.test" + Self.anonymous)!
            configuration.internalURL = base
            let client = try await HAAPIClient(configuration: configuration)
            defer { Task { try? await client.shutdown() } }
            #expect(client.endpoints.token.absoluteString == "https://idsvr.example.test/oauth/token")
            let flow = client.makeFlow()
            let first = try #require(try await flow.start().representation)
            _ = try await flow.submitForm(try #require(first.actions.first), parameters: ["userName": "demo"])
            let requests = await log.requests
            #expect(requests.map(\.path) == [Self.anonymous + "/.well-known/openid-configuration", Up.tokenPath, Up.authorizePath, Up.loginPath])
            #expect(requests.allSatisfy { $0.header("Host") == "idsvr.example.test" }, "\(requests.map { $0.header("Host") ?? "none" })")
            for request in requests.dropFirst() {
                let proof = try IndependentJWSVerifier.verifyWithEmbeddedJWK(try #require(request.header("DPoP"))).claims
                #expect(proof["htu"] as? String == "https://idsvr.example.test" + request.path)
            }
            let elsewhere = try #require(first.actions.last)
            let refused = await #expect(throws: HAAPIError.self) { _ = try await flow.submitForm(elsewhere, parameters: [:]) }
            #expect(refused?.code == .offOriginHref)
            #expect(await log.count == requests.count, "the other origin was never connected to")
        }
    }

    @Test("the routing: scheme, host and port from the internal URL, path and query kept, Host the external authority")
    func routing() throws {
        let transport = InternalRouteTransport(
            base: ClosureHAAPITransport { _ in HTTPResponseData(status: 200) },
            externalURL: URL(string: "https://login.example.com:8443/oauth/v2/oauth-anonymous")!,
            internalURL: URL(string: "http://curity.identity.svc:8080")!
        )
        let routed = try transport.route(
            HTTPRequestData(method: "GET", url: URL(string: "https://login.example.com:8443/authn/login?a=b%20c")!, headers: [("Host", "spoofed")])
        )
        #expect(routed.url.absoluteString == "http://curity.identity.svc:8080/authn/login?a=b%20c")
        #expect(routed.headers.filter { $0.name.lowercased() == "host" }.map(\.value) == ["login.example.com:8443"])
        #expect(throws: HAAPIError.self) {
            try transport.route(HTTPRequestData(method: "GET", url: URL(string: "https://login.example.com/authn/login")!))
        }
        let loopback6 = InternalRouteTransport(
            base: ClosureHAAPITransport { _ in HTTPResponseData(status: 200) },
            externalURL: URL(string: "https://login.example.com/oauth/v2/oauth-anonymous")!,
            internalURL: URL(string: "http://[::1]:8443")!
        )
        let routed6 = try loopback6.route(HTTPRequestData(method: "POST", url: URL(string: "https://login.example.com/oauth/v2/oauth-token")!))
        #expect(routed6.url.absoluteString == "http://[::1]:8443/oauth/v2/oauth-token")
        #expect(routed6.headers.filter { $0.name.lowercased() == "host" }.map(\.value) == ["login.example.com"])
    }

    @Test("an internal URL with a path, and endpoints off the external origin, are configuration problems")
    func internalURLProblems() {
        var configuration = Up.configuration(URL(string: "https://login.example.com/oauth/v2/oauth-anonymous")!)
        configuration.internalURL = URL(string: "http://curity:8443/prefix")!
        configuration.endpoints?.authorization = URL(string: "https://other.example.com/oauth/authorize")!
        #expect(configuration.problems.contains("internalURL must be an origin only (scheme, host and port): requests keep the external URL's path"))
        #expect(configuration.problems.contains { $0.contains("the authorization endpoint must be on the base URL's origin") })
    }
}
