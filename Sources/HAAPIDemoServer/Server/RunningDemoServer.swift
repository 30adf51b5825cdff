import Foundation
import ServiceLifecycle

/// A demo server started with ``DemoServer/start(configuration:logger:)``.
public struct RunningDemoServer: Sendable {
    /// The base URL, e.g. `http://127.0.0.1:54321`; also the issuer. Discovery is at
    /// `baseURL/.well-known/openid-configuration`.
    public let baseURL: URL
    let group: ServiceGroup
    let task: Task<Void, any Error>
    /// Where the demo client's `private_key_jwt` key was written, if configured.
    public let clientKeyPath: String?

    /// The issuer string (the base URL without a trailing slash).
    public var issuer: String { baseURL.absoluteString }

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
