import Foundation
import HAAPI

/// The settings of sign-ins (lifetimes, bounds, where they are kept) and of the page templates.
/// Each is a constant named after its path (`server.port`: ``serverPort``), the one place that path is written; its
/// summary, the reference's text, is its documentation.
extension ConfigurationKey {
    /// The `sessions` section's keys, in the reference's order.
    static let sessionsKeys: [ConfigurationKey] = [
        sessionsIdleTimeoutSeconds, sessionsAbsoluteTimeoutSeconds, sessionsMaximumSessions, sessionsMaximumNewSessionsPerAddress,
        sessionsNewSessionWindowSeconds, sessionsMaximumFailedPostsPerSession, sessionsMaximumFailedPostsPerAddress, sessionsFailedPostWindowSeconds,
        sessionsStore, sessionsPostgresURL, sessionsPostgresURLFile, sessionsEncryptionKeysFile, sessionsSynchronousCommit,
    ]

    public static let sessionsIdleTimeoutSeconds = ConfigurationKey(
        "sessions.idleTimeoutSeconds",
        .integer,
        range: 10...86_400,
        .atOnce,
        "A sign-in left alone this long ends."
    ) {
        "\($0.sessions.idleTimeoutSeconds)"
    }

    public static let sessionsAbsoluteTimeoutSeconds = ConfigurationKey(
        "sessions.absoluteTimeoutSeconds",
        .integer,
        range: 10...604_800,
        .atOnce,
        "A sign-in ends this long after it began (at least idleTimeoutSeconds)."
    ) { "\($0.sessions.absoluteTimeoutSeconds)" }

    public static let sessionsMaximumSessions = ConfigurationKey(
        "sessions.maximumSessions",
        .integer,
        range: 1...10_000_000,
        .atOnce,
        "The most sign-ins held (every replica's, with postgres)."
    ) { "\($0.sessions.maximumSessions)" }

    public static let sessionsMaximumNewSessionsPerAddress = ConfigurationKey(
        "sessions.maximumNewSessionsPerAddress",
        .integer,
        range: 0...1_000_000,
        .atOnce,
        "The most new sign-ins per client address in newSessionWindowSeconds; 0: no bound."
    ) { "\($0.sessions.maximumNewSessionsPerAddress)" }

    public static let sessionsNewSessionWindowSeconds = ConfigurationKey(
        "sessions.newSessionWindowSeconds",
        .integer,
        range: 1...86_400,
        .atOnce,
        "The sliding window new sign-ins are counted in."
    ) { "\($0.sessions.newSessionWindowSeconds)" }

    public static let sessionsMaximumFailedPostsPerSession = ConfigurationKey(
        "sessions.maximumFailedPostsPerSession",
        .integer,
        range: 1...10_000,
        .atOnce,
        "The most failed posts (forged, unknown button, wrong credentials) per sign-in in failedPostWindowSeconds."
    ) { "\($0.sessions.maximumFailedPostsPerSession)" }

    public static let sessionsMaximumFailedPostsPerAddress = ConfigurationKey(
        "sessions.maximumFailedPostsPerAddress",
        .integer,
        range: 1...1_000_000,
        .atOnce,
        "The same bound per client address, over all its sign-ins."
    ) { "\($0.sessions.maximumFailedPostsPerAddress)" }

    public static let sessionsFailedPostWindowSeconds = ConfigurationKey(
        "sessions.failedPostWindowSeconds",
        .integer,
        range: 1...86_400,
        .atOnce,
        "The sliding window failed posts are counted in."
    ) { "\($0.sessions.failedPostWindowSeconds)" }

    public static let sessionsStore = ConfigurationKey(
        "sessions.store",
        .string,
        .afterRestart(\.sessions.store),
        "Where sign-ins are kept: memory or postgres."
    ) {
        $0.sessions.store == .memory ? "memory" : "postgres"
    }

    public static let sessionsPostgresURL = ConfigurationKey(
        "sessions.postgresURL",
        .string,
        secret: true,
        .afterRestart(\.sessions.store),
        "postgres: the database URL, libpq's form (sslmode verify-full unless it says otherwise)."
    ) { postgres($0) { "\($0.url) \($0.url.password ?? "")" } }

    public static let sessionsPostgresURLFile = ConfigurationKey(
        "sessions.postgresURLFile",
        .string,
        .afterRestart(\.sessions.store),
        "postgres: a file holding the database URL."
    ) { _ in nil }

    public static let sessionsEncryptionKeysFile = ConfigurationKey(
        "sessions.encryptionKeysFile",
        .string,
        .afterRestart(\.sessions.store),
        "postgres: the AES-256 keys, one per line, that seal stored sign-ins; the first seals, every one opens."
    ) { postgres($0) { $0.encryptionKeys.map(\.idHex).joined(separator: ", ") } }

    public static let sessionsSynchronousCommit = ConfigurationKey(
        "sessions.synchronousCommit",
        .boolean,
        default: "false",
        .afterRestart(\.sessions.store),
        "postgres: whether a sign-in's row waits for the database's disk at every commit."
    ) { postgres($0) { "\($0.synchronousCommit)" } }

    /// The `templates` section's keys, in the reference's order.
    static let templatesKeys: [ConfigurationKey] = [
        templatesDirectory, templatesOverrideDirectory,
    ]

    public static let templatesDirectory = ConfigurationKey(
        "templates.directory",
        .string,
        .atOnce,
        "A directory of page templates used instead of the built-in ones; unset: the templates built into the program."
    ) {
        $0.templates.directory?.path
    }

    public static let templatesOverrideDirectory = ConfigurationKey(
        "templates.overrideDirectory",
        .string,
        .atOnce,
        "Templates that replace the defaults of the same name, file by file."
    ) {
        $0.templates.overrideDirectory?.path
    }

}
