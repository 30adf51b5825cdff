import Foundation
import Logging
import Synchronization

/// Applies a new configuration to a running gateway (on SIGHUP). Each setting declares when a change takes effect
/// (``ConfigurationKey/reload``): most at once; one the listener, the upstream client, a route or the logger was made
/// from keeps its running value, and the reload names it as waiting for a restart. A configuration whose templates do
/// not load is refused and the running one stays.
public final class GatewayReloader: Sendable {
    /// What a reload did.
    public struct Outcome: Sendable {
        /// Whether the new configuration is in effect (false: it was refused and the old one stays).
        public let applied: Bool
        /// Why it was refused.
        public let problems: [String]
        /// The settings (their keys, such as `server.port`) that changed but take effect only after a restart.
        public let needsRestart: [String]
    }

    private let state = Mutex<ReloadTarget?>(nil)

    /// A reloader not yet attached to a gateway (``Gateway``'s `makeApplication` attaches it).
    public init() {}

    func attach(_ target: ReloadTarget) { state.withLock { $0 = target } }

    /// Applies `configuration` to the running gateway.
    public func reload(_ configuration: GatewayConfiguration) async -> Outcome {
        guard let target = state.withLock({ $0 }) else { return Outcome(applied: false, problems: ["the gateway is not running"], needsRestart: []) }
        return await target.apply(configuration)
    }
}
