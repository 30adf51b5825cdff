/// When a changed setting takes effect on a running gateway (SIGHUP, ``GatewayReloader``).
public enum ConfigurationReload: Sendable {
    /// At once: the requests after the reload see the new value.
    case atOnce
    /// After a restart, because the listener, the upstream client, a route or the logger was made from it. Until then
    /// `keep` puts the running value back into the configuration that is applied, so that the configuration in effect
    /// is what actually runs.
    case afterRestart(keep: @Sendable (_ applied: inout GatewayConfiguration, _ running: GatewayConfiguration) -> Void)

    /// After a restart; the running value of `field` stays until then.
    static func afterRestart<Value>(_ field: any WritableKeyPath<GatewayConfiguration, Value> & Sendable) -> ConfigurationReload {
        .afterRestart { applied, running in applied[keyPath: field] = running[keyPath: field] }
    }

    /// Whether the setting waits for a restart.
    public var waitsForRestart: Bool {
        if case .afterRestart = self { true } else { false }
    }
}
