import Foundation

@testable import HAAPI

/// Shared pieces for tests against the scripted upstream.
enum TestUpstream {
    static let tokenPath = "/oauth/token"
    static let authorizePath = "/oauth/authorize"
    static let revokePath = "/oauth/revoke"
    static let loginPath = "/authn/login"

    static func configuration(
        _ base: URL,
        authentication: ClientAuthentication = .secretBasic("demo-secret"),
        // Generous: these tests are not about timeouts, and a loaded 2-core CI machine can stall a loopback call for
        // seconds. The timeout tests set their own short values.
        requestTimeout: Duration = .seconds(30),
        bindTokensToDPoP: Bool = false,
        explicitEndpoints: Bool = true
    ) -> HAAPIClientConfiguration {
        let endpoints = HAAPIEndpoints(
            authorization: base.appendingPathComponent("oauth/authorize"),
            token: base.appendingPathComponent("oauth/token"),
            revocation: base.appendingPathComponent("oauth/revoke"),
            issuer: base.absoluteString
        )
        return HAAPIClientConfiguration(
            baseURL: base,
            endpoints: explicitEndpoints ? endpoints : nil,
            clientID: "demo-gateway",
            clientAuthentication: authentication,
            redirectURI: "haapi:start",
            scopes: ["openid", "profile"],
            authorizationParameters: AuthorizationParameters(
                acrValues: ["urn:acr:pw"],
                prompt: "login",
                uiLocales: ["sv", "en"],
                loginHint: "demo",
                maxAgeSeconds: 300,
                claims: #"{"id_token":{"email":null}}"#
            ),
            connectTimeout: .seconds(10),
            requestTimeout: requestTimeout,
            bindTokensToDPoP: bindTokensToDPoP
        )
    }

    static func client(_ base: URL, _ configure: (inout HAAPIClientConfiguration) -> Void = { _ in }) async throws -> HAAPIClient {
        var configuration = configuration(base)
        configure(&configuration)
        return try await HAAPIClient(configuration: configuration)
    }

    /// A redirection step into the login form.
    static let redirectionStep =
        #"{"type":"redirection-step","actions":[{"template":"form","kind":"redirect","model":{"href":"/authn/login?from=authorize","method":"GET"}}]}"#

    /// A login form with a hidden field.
    static let loginStep =
        #"{"type":"authentication-step","actions":[{"template":"form","kind":"login","model":{"href":"/authn/login","method":"POST","type":"application/x-www-form-urlencoded","fields":[{"name":"userName","type":"username"},{"name":"password","type":"password"},{"name":"flowHint","type":"hidden","value":"server-value"}]}}],"links":[{"href":"/authn/forgot","rel":"forgot-password"},{"href":"https://evil.example/steal","rel":"evil"},{"href":"data:image/png;base64,AAAA","rel":"activation","type":"image/png"}]}"#

    static func authorizationResponseStep(state: String, code: String = "code-123", issuer: String? = nil) -> String {
        let iss = issuer.map { #","iss":"\#($0)""# } ?? ""
        return
            #"{"type":"oauth-authorization-response","properties":{"code":"\#(code)","state":"\#(state)"\#(iss)},"links":[{"rel":"authorization-response","href":"haapi:start?code=\#(code)"}]}"#
    }

    static func loginAction() throws -> Action {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(loginStep.utf8))
        return try Representation(json: json).actions[0]
    }
}
