import Foundation
import Testing

@testable import HAAPIGateway

/// ``DemoUpstreamSettings/clientConfiguration(issuer:clientID:clientSecret:redirectURI:)``: the upstream a gateway uses
/// once its embedded demo server listens.
@Suite("The embedded demo upstream's client")
struct DemoUpstreamClientTests {
    @Test("the embedded demo upstream's client: its issuer and client, the demo settings' scopes and timeout")
    func embeddedDemoClient() throws {
        let settings = DemoUpstreamSettings(scopes: ["openid"], timeoutSeconds: 7)
        let issuer = try #require(URL(string: "http://127.0.0.1:1234/oauth/v2/oauth-anonymous"))
        let client = settings.clientConfiguration(issuer: issuer, clientID: "demo-gateway", clientSecret: "demo-secret", redirectURI: "haapi:start")
        #expect(client.baseURL == issuer)
        #expect(client.clientID == "demo-gateway")
        #expect(client.redirectURI == "haapi:start")
        #expect(client.scopes == ["openid"])
        #expect(client.connectTimeout == .seconds(7) && client.requestTimeout == .seconds(7))
    }
}
