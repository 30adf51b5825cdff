import Foundation
import ServiceLifecycle

/// A demo server started with ``DemoServer/start(configuration:logger:)``.
public struct RunningDemoServer: Sendable {
    /// The base URL, e.g. `http://127.0.0.1:54321` (or the configured public base URL).
    public let baseURL: URL
    /// Where the server listens (`http://127.0.0.1:54321`): the base URL unless a public base URL was configured, and
    /// then what a client connects to (a gateway's `upstream.internalURL`).
    public let listeningURL: URL
    let group: ServiceGroup
    let task: Task<Void, any Error>
    /// Where the demo client's `private_key_jwt` key was written, if configured.
    public let clientKeyPath: String?
    /// What the server "sent" (one-time codes, approval links).
    let outbox: DemoOutbox
    /// The token responses issued, by grant type.
    let grants: DemoGrantCount

    /// The issuer: the anonymous endpoint under the base URL, as Curity's (`…/oauth/v2/oauth-anonymous`); discovery is
    /// at `issuer/.well-known/openid-configuration`. A gateway's `upstream.baseURL`.
    public var issuer: String { baseURL.absoluteString + DemoPaths.anonymous }

    /// The issuer as a URL.
    public var issuerURL: URL { baseURL.appendingPathComponent(String(DemoPaths.anonymous.dropFirst())) }

    /// The document the server's `/demo/outbox` answers (`{"messages":[…]}`, newest first: the one-time codes, approval
    /// links and notice copies it "sent"), for a gateway in front of it to serve on its own origin.
    public func outboxDocument() -> [UInt8] {
        DemoOutbox.document(outbox.entries)
    }

    /// How many token responses of `grantType` (`refresh_token`, `authorization_code`, `client_credentials`) the token
    /// endpoint has issued: a refused request is not counted.
    public func tokensIssued(grantType: String) -> Int {
        grants.count(grantType)
    }

    /// Stops the server gracefully and waits until it has stopped; cancels it if that takes over two seconds.
    public func shutdown() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let watchdog = Task {
            try await Task.sleep(for: .seconds(2))
            task.cancel()
        }
        _ = try? await task.value
        watchdog.cancel()
    }
}
