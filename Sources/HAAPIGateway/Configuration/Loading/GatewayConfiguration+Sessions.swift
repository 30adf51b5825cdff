extension GatewayConfiguration {
    /// `sessions`: the sign-ins' lifetimes and bounds (the store is ``resolveSessionStore(_:)``'s).
    static func resolveSessions(_ reader: inout ConfigurationReader) -> SessionSettings {
        let sessionDefaults = SessionSettings()
        let sessions = SessionSettings(
            idleTimeoutSeconds: reader.integer(.sessionsIdleTimeoutSeconds, default: sessionDefaults.idleTimeoutSeconds),
            absoluteTimeoutSeconds: reader.integer(
                .sessionsAbsoluteTimeoutSeconds,
                default: sessionDefaults.absoluteTimeoutSeconds
            ),
            maximumSessions: reader.integer(.sessionsMaximumSessions, default: sessionDefaults.maximumSessions),
            maximumNewSessionsPerAddress: reader.integer(
                .sessionsMaximumNewSessionsPerAddress,
                default: sessionDefaults.maximumNewSessionsPerAddress
            ),
            newSessionWindowSeconds: reader.integer(
                .sessionsNewSessionWindowSeconds,
                default: sessionDefaults.newSessionWindowSeconds
            ),
            maximumFailedPostsPerSession: reader.integer(
                .sessionsMaximumFailedPostsPerSession,
                default: sessionDefaults.maximumFailedPostsPerSession
            ),
            maximumFailedPostsPerAddress: reader.integer(
                .sessionsMaximumFailedPostsPerAddress,
                default: sessionDefaults.maximumFailedPostsPerAddress
            ),
            failedPostWindowSeconds: reader.integer(
                .sessionsFailedPostWindowSeconds,
                default: sessionDefaults.failedPostWindowSeconds
            )
        )
        if sessions.absoluteTimeoutSeconds < sessions.idleTimeoutSeconds {
            reader.problem(.sessionsAbsoluteTimeoutSeconds, "must not be shorter than \(ConfigurationKey.sessionsIdleTimeoutSeconds.path)")
        }
        return sessions
    }
}
