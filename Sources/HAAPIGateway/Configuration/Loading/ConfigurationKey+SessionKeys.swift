import Foundation
import HAAPI

/// The settings of sign-ins (lifetimes, bounds, where they are kept) and of the page templates.
extension ConfigurationKey {
    static let sessionsKeys: [ConfigurationKey] = [
        .init("sessions.idleTimeoutSeconds", .integer, range: 10...86_400, .atOnce, "A sign-in left alone this long ends.") {
            "\($0.sessions.idleTimeoutSeconds)"
        },
        .init(
            "sessions.absoluteTimeoutSeconds",
            .integer,
            range: 10...604_800,
            .atOnce,
            "A sign-in ends this long after it began (at least idleTimeoutSeconds)."
        ) { "\($0.sessions.absoluteTimeoutSeconds)" },
        .init(
            "sessions.maximumSessions",
            .integer,
            range: 1...10_000_000,
            .atOnce,
            "The most sign-ins held (every replica's, with postgres)."
        ) { "\($0.sessions.maximumSessions)" },
        .init(
            "sessions.maximumNewSessionsPerAddress",
            .integer,
            range: 0...1_000_000,
            .atOnce,
            "The most new sign-ins per client address in newSessionWindowSeconds; 0: no bound."
        ) { "\($0.sessions.maximumNewSessionsPerAddress)" },
        .init(
            "sessions.newSessionWindowSeconds",
            .integer,
            range: 1...86_400,
            .atOnce,
            "The sliding window new sign-ins are counted in."
        ) { "\($0.sessions.newSessionWindowSeconds)" },
        .init(
            "sessions.maximumFailedPostsPerSession",
            .integer,
            range: 1...10_000,
            .atOnce,
            "The most failed posts (forged, unknown button, wrong credentials) per sign-in in failedPostWindowSeconds."
        ) { "\($0.sessions.maximumFailedPostsPerSession)" },
        .init(
            "sessions.maximumFailedPostsPerAddress",
            .integer,
            range: 1...1_000_000,
            .atOnce,
            "The same bound per client address, over all its sign-ins."
        ) { "\($0.sessions.maximumFailedPostsPerAddress)" },
        .init(
            "sessions.failedPostWindowSeconds",
            .integer,
            range: 1...86_400,
            .atOnce,
            "The sliding window failed posts are counted in."
        ) { "\($0.sessions.failedPostWindowSeconds)" },
        .init("sessions.store", .string, .afterRestart(\.sessions.store), "Where sign-ins are kept: memory or postgres.") {
            $0.sessions.store == .memory ? "memory" : "postgres"
        },
        .init(
            "sessions.postgresURL",
            .string,
            secret: true,
            .afterRestart(\.sessions.store),
            "postgres: the database URL, libpq's form (sslmode verify-full unless it says otherwise)."
        ) { postgres($0) { "\($0.url) \($0.url.password ?? "")" } },
        .init("sessions.postgresURLFile", .string, .afterRestart(\.sessions.store), "postgres: a file holding the database URL.") { _ in nil },
        .init(
            "sessions.encryptionKeysFile",
            .string,
            .afterRestart(\.sessions.store),
            "postgres: the AES-256 keys, one per line, that seal stored sign-ins; the first seals, every one opens."
        ) { postgres($0) { $0.encryptionKeys.map(\.idHex).joined(separator: ", ") } },
        .init(
            "sessions.synchronousCommit",
            .boolean,
            default: "false",
            .afterRestart(\.sessions.store),
            "postgres: whether a sign-in's row waits for the database's disk at every commit."
        ) { postgres($0) { "\($0.synchronousCommit)" } },
    ]

    static let templatesKeys: [ConfigurationKey] = [
        .init("templates.directory", .string, .atOnce, "The page templates; unset: ./templates, else next to the executable.") {
            $0.templates.directory?.path
        },
        .init("templates.overrideDirectory", .string, .atOnce, "Templates that replace the defaults of the same name, file by file.") {
            $0.templates.overrideDirectory?.path
        },
    ]
}
