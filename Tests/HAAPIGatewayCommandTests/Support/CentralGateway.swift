import Foundation

@testable import GatewayTestSupport

/// A central gateway process for the device grant's tests: its embedded demo upstream, device authorization on with one
/// device client (`build-host`, "Build host 3", its secret in `device-secret`), polled every second.
enum CentralGateway {
    /// Starts it with its configuration in `directory`; with `strict`, the demo upstream issues token-bound codes, so the
    /// tokens come DPoP-bound with their key. Returns the process and its base URL.
    static func start(in directory: URL, secret: String, strict: Bool = false) async throws -> (RunningGateway, String) {
        try (secret + "\n").write(to: directory.appendingPathComponent("device-secret"), atomically: true, encoding: .utf8)
        try """
        server:
          port: 0
          drainSeconds: 0
        demo:
          strict: \(strict)
        devices:
          enabled: true
          pollIntervalSeconds: 1
          clients:
            - id: build-host
              name: Build host 3
              secretFile: device-secret
              receivesDPoPKey: true
        """.write(to: directory.appendingPathComponent("gateway.yaml"), atomically: true, encoding: .utf8)
        let gateway = try RunningGateway(
            ["serve", "--config", directory.appendingPathComponent("gateway.yaml").path],
            environment: ["HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60"]
        )
        let url = try await gateway.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        return (gateway, url)
    }
}
