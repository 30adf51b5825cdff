import Foundation
import HAAPI
import HAAPIGateway
import Testing

@testable import GatewayTestSupport
@testable import haapi_gateway

/// `haapi-gateway serve` (the default subcommand): flags, and how they layer over file and environment.
@Suite struct ServeCommandTests {
    private let templates = ["--templates", Repository.templates.path]

    @Test func serveIsTheDefaultSubcommandOnLoopback8080WithTheDemoUpstream() throws {
        let command = try HAAPIGatewayCommand.parseAsRoot(templates)
        let serve = try #require(command as? ServeCommand)
        let configuration = try serve.options.flags.load(environment: [:])
        #expect(configuration.server.host == "127.0.0.1")
        #expect(configuration.server.port == 8080)
        guard case .demo(let demo) = configuration.upstream else {
            Issue.record("expected the demo upstream")
            return
        }
        #expect(!demo.requireDPoPNonce)
    }

    @Test func mapsFlagsOntoTheConfiguration() throws {
        let directory = try Repository.temporaryDirectory()
        let secretFile = directory.appendingPathComponent("secret")
        try "s3cret-from-a-file\n".write(to: secretFile, atomically: true, encoding: .utf8)
        let serve = try ServeCommand.parse(
            [
                "--host", "127.0.0.2", "--port", "0", "--callback", "file:\(directory.path)/out.json", "--callback", "exec:/bin/true",
                "--public-url", "https://gw.example", "--upstream", "https://idsvr.example", "--client-id", "c",
                "--client-secret-file", secretFile.path, "--redirect-uri", "app:cb", "--log-level", "debug",
            ] + templates
        )
        let configuration = try serve.options.flags.load(environment: [:])
        #expect(configuration.server.host == "127.0.0.2")
        #expect(configuration.server.port == 0)
        #expect(configuration.server.servesTLS)
        #expect(configuration.callbacks == [.file(path: "\(directory.path)/out.json"), .exec(program: "/bin/true")])
        #expect(configuration.templates.directory?.path == Repository.templates.path)
        #expect(configuration.logging.level == .debug)
        guard case .haapi(let client) = configuration.upstream else {
            Issue.record("expected a HAAPI upstream")
            return
        }
        #expect(client.clientID == "c")
        #expect(client.redirectURI == "app:cb")
        guard case .secretBasic(let secret) = client.clientAuthentication else {
            Issue.record("expected client_secret_basic")
            return
        }
        #expect(secret == "s3cret-from-a-file")
    }

    @Test func aClientSecretFlagIsAccepted() throws {
        let serve = try ServeCommand.parse(["--upstream", "https://idsvr.example", "--client-id", "c", "--client-secret", "flag-secret"] + templates)
        guard case .haapi(let client) = try serve.options.flags.load(environment: [:]).upstream,
            case .secretBasic(let secret) = client.clientAuthentication
        else {
            Issue.record("expected client_secret_basic")
            return
        }
        #expect(secret == "flag-secret")
    }

    @Test func flagsWinOverEnvironmentWhichWinsOverTheFile() throws {
        let file = try Repository.temporaryDirectory().appendingPathComponent("gateway.yaml")
        try "server:\n  port: 9000\n  host: 127.0.0.3\n".write(to: file, atomically: true, encoding: .utf8)
        let environment = ["HAAPI_GATEWAY_CONFIG": file.path, "HAAPI_GATEWAY_SERVER_PORT": "9001"]
        let fileOnly = try ServeCommand.parse(templates).options.flags.load(environment: ["HAAPI_GATEWAY_CONFIG": file.path])
        #expect(fileOnly.server.port == 9000)
        let withEnvironment = try ServeCommand.parse(templates).options.flags.load(environment: environment)
        #expect(withEnvironment.server.port == 9001)
        #expect(withEnvironment.server.host == "127.0.0.3")
        let withFlag = try ServeCommand.parse(["--port", "9002"] + templates).options.flags.load(environment: environment)
        #expect(withFlag.server.port == 9002)
    }

    @Test func reportsEveryProblemAtOnceNamingTheFlag() throws {
        let serve = try ServeCommand.parse(["--port", "70000", "--upstream", "idsvr.example", "--callback", "ftp:x", "--templates", "/nonexistent"])
        do {
            _ = try serve.options.flags.load(environment: ["HAAPI_GATEWAY_SERVER_PROT": "1"])
            Issue.record("expected a configuration error")
        } catch {
            let text = error.description
            #expect(text.contains("server.port (flag --port)"))
            #expect(text.contains("upstream.baseURL (flag --upstream)"))
            #expect(text.contains("callbacks.sinks (flag --callback)"))
            #expect(text.contains("HAAPI_GATEWAY_SERVER_PROT"))
            #expect(text.contains("templates"))
            #expect(error.problems.count >= 5)
        }
    }
}
