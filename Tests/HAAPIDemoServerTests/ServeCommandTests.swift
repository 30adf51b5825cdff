import Foundation
import HAAPI
import HAAPIGateway
import Testing

@testable import haapi_gateway

/// Smoke checks of `haapi-gateway serve` (the default subcommand) and `render`.
@Suite struct ServeCommandTests {
    @Test func serveIsTheDefaultSubcommandOnLoopback8080() throws {
        let command = try HAAPIGatewayCommand.parseAsRoot([])
        let serve = try #require(command as? ServeCommand)
        #expect(serve.host == "127.0.0.1")
        #expect(serve.port == 8080)
        #expect(serve.upstream == nil, "embedded demo upstream")
    }

    @Test func mapsFlagsOntoTheConfiguration() throws {
        let serve = try ServeCommand.parse([
            "--host", "127.0.0.1", "--port", "0", "--callback", "file:/tmp/out.json", "--callback", "exec:/usr/bin/true",
            "--templates", "/t", "--template-overrides", "/o", "--public-url", "https://gw.example",
        ])
        let upstream = HAAPIClientConfiguration(
            baseURL: URL(string: "https://idsvr.example")!, clientID: "c", clientAuthentication: .secretBasic("s"), redirectURI: "haapi:start", scopes: ["openid"])
        let configuration = try serve.gatewayConfiguration(upstream: upstream)
        #expect(configuration.server.port == 0)
        #expect(configuration.server.servesTLS)
        #expect(configuration.callbacks == [CallbackSinkConfiguration.file(path: "/tmp/out.json"), CallbackSinkConfiguration.exec(program: "/usr/bin/true")])
        #expect(configuration.templates.directory?.path == "/t")
        #expect(configuration.templates.overrideDirectory?.path == "/o")
    }

    @Test func rejectsBadValues() {
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--port", "70000"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--upstream", "https://idsvr.example"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--callback", "ftp:x"]) }
        // An unparsable upstream must stop startup, never fall back to the demo server.
        #expect(throws: (any Error).self) {
            try ServeCommand.parse(["--upstream", "idsvr.example", "--client-id", "c", "--client-secret", "s"])
        }
        #expect(throws: (any Error).self) {
            try ServeCommand.parse(["--upstream", "ftp://idsvr.example", "--client-id", "c", "--client-secret", "s"])
        }
        #expect(throws: Never.self) {
            try ServeCommand.parse(["--upstream", "https://idsvr.example", "--client-id", "c", "--client-secret", "s"])
        }
    }
}
