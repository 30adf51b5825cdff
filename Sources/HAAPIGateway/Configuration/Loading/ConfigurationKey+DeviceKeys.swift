import Foundation
import HAAPI

/// The settings of device authorization (RFC 8628), start links and logging.
/// Each is a constant named after its path (`server.port`: ``serverPort``), the one place that path is written; its
/// summary, the reference's text, is its documentation.
extension ConfigurationKey {
    /// The `devices` section's keys, in the reference's order.
    static let devicesKeys: [ConfigurationKey] = [
        devicesEnabled, devicesClients, devicesCodeLifetimeSeconds, devicesPollIntervalSeconds, devicesMaximumWrongCodesPerAddress,
        devicesMaximumWrongCodes, devicesWrongCodeWindowSeconds, devicesMaximumEntriesPerCode, devicesMaximumPendingAuthorizations,
        devicesMaximumPendingPerAddress, devicesRefreshTokenKeyFile,
    ]

    public static let devicesEnabled = ConfigurationKey(
        "devices.enabled",
        .boolean,
        .afterRestart(\.devices.enabled),
        "Serve the device authorization grant (RFC 8628) for headless hosts."
    ) { "\($0.devices.enabled)" }

    public static let devicesClients = ConfigurationKey(
        "devices.clients",
        .records,
        .atOnce,
        "The devices allowed to ask: id, name, secretFile, receivesDPoPKey."
    ) {
        list($0.devices.clients.map(\.id))
    }

    public static let devicesCodeLifetimeSeconds = ConfigurationKey(
        "devices.codeLifetimeSeconds",
        .integer,
        range: 60...3600,
        .atOnce,
        "How long a device code and its user code work."
    ) { "\($0.devices.codeLifetimeSeconds)" }

    public static let devicesPollIntervalSeconds = ConfigurationKey(
        "devices.pollIntervalSeconds",
        .integer,
        range: 1...60,
        .atOnce,
        "The least time between two polls of one device code."
    ) { "\($0.devices.pollIntervalSeconds)" }

    public static let devicesMaximumWrongCodesPerAddress = ConfigurationKey(
        "devices.maximumWrongCodesPerAddress",
        .integer,
        range: 1...10_000,
        .atOnce,
        "The most wrong user codes per client address in wrongCodeWindowSeconds."
    ) { "\($0.devices.maximumWrongCodesPerAddress)" }

    public static let devicesMaximumWrongCodes = ConfigurationKey(
        "devices.maximumWrongCodes",
        .integer,
        range: 1...1_000_000,
        .atOnce,
        "The most wrong user codes from all addresses together in wrongCodeWindowSeconds."
    ) { "\($0.devices.maximumWrongCodes)" }

    public static let devicesWrongCodeWindowSeconds = ConfigurationKey(
        "devices.wrongCodeWindowSeconds",
        .integer,
        range: 1...86_400,
        .atOnce,
        "The sliding window wrong codes are counted in."
    ) { "\($0.devices.wrongCodeWindowSeconds)" }

    public static let devicesMaximumEntriesPerCode = ConfigurationKey(
        "devices.maximumEntriesPerCode",
        .integer,
        range: 1...100,
        .atOnce,
        "How many times one user code may be entered."
    ) { "\($0.devices.maximumEntriesPerCode)" }

    public static let devicesMaximumPendingAuthorizations = ConfigurationKey(
        "devices.maximumPendingAuthorizations",
        .integer,
        range: 1...10_000_000,
        .atOnce,
        "The most device sign-ins waiting at once."
    ) { "\($0.devices.maximumPendingAuthorizations)" }

    public static let devicesMaximumPendingPerAddress = ConfigurationKey(
        "devices.maximumPendingPerAddress",
        .integer,
        range: 1...10_000_000,
        .atOnce,
        "The most of them from one client address, for public clients."
    ) { "\($0.devices.maximumPendingPerAddress)" }

    public static let devicesRefreshTokenKeyFile = ConfigurationKey(
        "devices.refreshTokenKeyFile",
        .string,
        .afterRestart(\.devices.refreshTokenKeys),
        "Keys, one per line, that seal the refresh tokens handed to devices."
    ) { $0.devices.refreshTokenKeys.isEmpty ? nil : fingerprint($0.devices.refreshTokenKeys.map { $0.base64EncodedString() }.joined()) }

    /// The `startLinks` section's keys, in the reference's order.
    static let startLinksKeys: [ConfigurationKey] = [
        startLinksSecretFile, startLinksPreviousSecretFile, startLinksAllowedParameters, startLinksMaximumLifetimeSeconds,
    ]

    public static let startLinksSecretFile = ConfigurationKey(
        "startLinks.secretFile",
        .string,
        // Links are served or not from the start; a rotated secret applies at once.
        .afterRestart { applied, running in
            if applied.startLinks.enabled != running.startLinks.enabled { applied.startLinks = running.startLinks }
        },
        "The secret that signs start links (at least 32 characters); unset: no start links."
    ) { $0.startLinks.enabled ? "set" : nil }

    public static let startLinksPreviousSecretFile = ConfigurationKey(
        "startLinks.previousSecretFile",
        .string,
        .atOnce,
        "The secret before a rotation: links it signed work until they expire."
    ) { $0.startLinks.previousSecret == nil ? nil : "set" }

    public static let startLinksAllowedParameters = ConfigurationKey(
        "startLinks.allowedParameters",
        .list,
        .atOnce,
        "The authorize parameters a link may set: login_hint, ui_locales, acr_values, prompt."
    ) { list($0.startLinks.allowedParameters) }

    public static let startLinksMaximumLifetimeSeconds = ConfigurationKey(
        "startLinks.maximumLifetimeSeconds",
        .integer,
        range: 10...86_400,
        .atOnce,
        "The longest a link may be valid."
    ) { "\($0.startLinks.maximumLifetimeSeconds)" }

    /// The `logging` section's keys, in the reference's order.
    static let loggingKeys: [ConfigurationKey] = [
        loggingLevel, loggingFormat,
    ]

    public static let loggingLevel = ConfigurationKey(
        "logging.level",
        .string,
        .afterRestart(\.logging),
        "trace, debug, info, notice, warning, error or critical."
    ) {
        $0.logging.level.rawValue
    }

    public static let loggingFormat = ConfigurationKey(
        "logging.format",
        .string,
        .afterRestart(\.logging),
        "text (for people) or json (one object per line)."
    ) {
        $0.logging.format.rawValue
    }

}
