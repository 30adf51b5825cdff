import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// A host signed in with a real `login` against a demo upstream that outlives it, for the tests of the commands that use
/// its tokens afterwards (`token`, the credential helpers, `proxy`).
enum SignedInHost {
    /// Upstream calls may be slow while the whole suite loads this machine; the client secret as `login` and the commands
    /// after it read it (from the environment: the token file holds no secret).
    static let environment: [String: String] = [
        "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60", "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": DemoServer.clientSecret,
    ]

    /// Signs in once with `login` against `demo` and returns the token file, in a private directory of its own.
    static func login(_ demo: RunningDemoServer) async throws -> URL {
        let tokenFile = try Repository.temporaryDirectory().appendingPathComponent("private").appendingPathComponent("tokens.json")
        let login = try RunningGateway(
            [
                "login", "--port", "0", "--timeout-seconds", "120", "--token-file", tokenFile.path, "--upstream", demo.issuer, "--client-id",
                DemoServer.clientID,
            ],
            environment: environment
        )
        _ = try await login.pairAndSignIn()
        #expect(try await login.waitForExit() == 0, "\(login.standardError)")
        return tokenFile
    }

    /// Runs `body` with a demo upstream in strict mode changed by `configure`, and stops it afterwards.
    static func withDemo(_ configure: (inout DemoServerConfiguration) -> Void, _ body: (RunningDemoServer) async throws -> Void) async throws {
        var configuration = DemoServerConfiguration.strict
        configure(&configuration)
        let demo = try await DemoServer.start(configuration: configuration)
        do {
            try await body(demo)
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }
}
