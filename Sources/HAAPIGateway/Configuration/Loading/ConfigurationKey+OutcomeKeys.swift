import Foundation
import HAAPI

/// The settings of outcomes, pages and metrics.
/// Each is a constant named after its path (`server.port`: ``serverPort``), the one place that path is written; its
/// summary, the reference's text, is its documentation.
extension ConfigurationKey {
    /// Where the outcome of a sign-in goes, what it holds, and where the browser goes then.
    static let outcomesKeys: [ConfigurationKey] = [
        callbacksSinks, callbacksWebhookSecret, callbacksWebhookSecretFile, callbacksPreviousWebhookSecretFile, callbacksRetryForSeconds,
        callbacksHandOverSeconds, callbacksPageWaitSeconds, callbacksSpoolFile, outcomeIdTokenClaims, outcomeUserinfoClaims, completionRedirectURL,
        completionConfirmCancel,
    ]

    public static let callbacksSinks = ConfigurationKey(
        "callbacks.sinks",
        .list,
        .atOnce,
        "Where each outcome goes: file:PATH, exec:PROGRAM, https:// webhooks."
    ) {
        list($0.callbacks.map(\.description))
    }

    public static let callbacksWebhookSecret = ConfigurationKey(
        "callbacks.webhookSecret",
        .string,
        secret: true,
        .atOnce,
        "The webhook signing secret, at least 16 characters (prefer webhookSecretFile)."
    ) { $0.callbacks.lazy.compactMap(\.webhookSecret).first }

    public static let callbacksWebhookSecretFile = ConfigurationKey(
        "callbacks.webhookSecretFile",
        .string,
        .atOnce,
        "A file holding the webhook secret."
    ) { _ in nil }

    public static let callbacksPreviousWebhookSecretFile = ConfigurationKey(
        "callbacks.previousWebhookSecretFile",
        .string,
        .atOnce,
        "During a rotation, the old webhook secret: requests carry both signatures."
    ) { $0.callbacks.lazy.compactMap(\.previousWebhookSecret).first.map { _ in "set" } }

    public static let callbacksRetryForSeconds = ConfigurationKey(
        "callbacks.retryForSeconds",
        .integer,
        range: 0...604_800,
        .atOnce,
        "How long a failed delivery is retried, with backoff."
    ) { "\($0.callbackDelivery.retryForSeconds)" }

    public static let callbacksHandOverSeconds = ConfigurationKey(
        "callbacks.handOverSeconds",
        .integer,
        range: 1...300,
        .atOnce,
        "How long a shutdown waits for the sinks' last deliveries (and at most how long the last page does)."
    ) { "\($0.callbackDelivery.handOverSeconds)" }

    public static let callbacksPageWaitSeconds = ConfigurationKey(
        "callbacks.pageWaitSeconds",
        .integer,
        range: 1...300,
        .atOnce,
        "How long the person's last page waits for the sinks before it says the hand-over goes on in the background."
    ) { "\($0.callbackDelivery.pageWaitSeconds)" }

    public static let callbacksSpoolFile = ConfigurationKey(
        "callbacks.spoolFile",
        .string,
        .atOnce,
        "Where deliveries not yet done are kept across restarts (memory store only)."
    ) { $0.callbackDelivery.spoolFile }

    public static let outcomeIdTokenClaims = ConfigurationKey(
        "outcome.idTokenClaims",
        .list,
        .atOnce,
        "Claims of the validated ID token put in a successful outcome."
    ) {
        list($0.outcome.idTokenClaims)
    }

    public static let outcomeUserinfoClaims = ConfigurationKey(
        "outcome.userinfoClaims",
        .list,
        .atOnce,
        "Claims of the userinfo endpoint put in a successful outcome."
    ) {
        list($0.outcome.userinfoClaims)
    }

    public static let completionRedirectURL = ConfigurationKey(
        "completion.redirectURL",
        .string,
        .atOnce,
        "Where the browser goes after a successful sign-in."
    ) {
        $0.completion.redirectURL?.absoluteString
    }

    public static let completionConfirmCancel = ConfigurationKey(
        "completion.confirmCancel",
        .boolean,
        .atOnce,
        "Whether \"Cancel sign-in\" asks first."
    ) {
        "\($0.completion.confirmCancel)"
    }

    /// How the pages wait, reset and look.
    static let pagesKeys: [ConfigurationKey] = [
        pollingDefaultIntervalSeconds, pollingMaximumWaitSeconds, kioskEnabled, kioskResetAfterSeconds, kioskIdleResetSeconds, themeProductName,
        themeLogoFile, themeColorScheme, themeTextColor, themeBackgroundColor, themeAccentColor, themeErrorColor, themeBorderColor,
        themeDarkTextColor, themeDarkBackgroundColor, themeDarkAccentColor, themeDarkErrorColor, themeDarkBorderColor,
    ]

    public static let pollingDefaultIntervalSeconds = ConfigurationKey(
        "polling.defaultIntervalSeconds",
        .integer,
        range: 1...60,
        .atOnce,
        "How often a waiting page checks when the upstream names no interval."
    ) { "\($0.polling.defaultIntervalSeconds)" }

    public static let pollingMaximumWaitSeconds = ConfigurationKey(
        "polling.maximumWaitSeconds",
        .integer,
        range: 10...3600,
        .atOnce,
        "The longest wait on one waiting step."
    ) {
        "\($0.polling.maximumWaitSeconds)"
    }

    public static let kioskEnabled = ConfigurationKey(
        "kiosk.enabled",
        .boolean,
        .afterRestart(\.kiosk.enabled),
        "A shared screen that resets itself for the next person."
    ) {
        "\($0.kiosk.enabled)"
    }

    public static let kioskResetAfterSeconds = ConfigurationKey(
        "kiosk.resetAfterSeconds",
        .integer,
        range: 1...600,
        .atOnce,
        "How long the final page stays in kiosk mode."
    ) {
        "\($0.kiosk.resetAfterSeconds)"
    }

    public static let kioskIdleResetSeconds = ConfigurationKey(
        "kiosk.idleResetSeconds",
        .integer,
        range: 10...3600,
        .atOnce,
        "How long a page may stay untouched in kiosk mode before the sign-in starts over."
    ) { "\($0.kiosk.idleResetSeconds)" }

    public static let themeProductName = ConfigurationKey(
        "theme.productName",
        .string,
        .atOnce,
        "Shown above every page's heading and in the browser tab."
    ) {
        $0.theme.productName
    }

    public static let themeLogoFile = ConfigurationKey(
        "theme.logoFile",
        .string,
        .atOnce,
        "An image shown above every page's heading (at most 256 KiB)."
    ) {
        $0.theme.logo.map { "\($0.contentType), \($0.bytes.count) bytes" }
    }

    public static let themeColorScheme = ConfigurationKey("theme.colorScheme", .string, .atOnce, "auto (follow the device), light or dark.") {
        $0.theme.colorScheme.rawValue
    }

    public static let themeTextColor = ConfigurationKey("theme.textColor", .string, .atOnce, "The light appearance's text colour.") {
        $0.theme.light.text
    }

    public static let themeBackgroundColor = ConfigurationKey("theme.backgroundColor", .string, .atOnce, "The light appearance's background.") {
        $0.theme.light.background
    }

    public static let themeAccentColor = ConfigurationKey("theme.accentColor", .string, .atOnce, "The light appearance's links and buttons.") {
        $0.theme.light.accent
    }

    public static let themeErrorColor = ConfigurationKey("theme.errorColor", .string, .atOnce, "The light appearance's errors.") {
        $0.theme.light.error
    }

    public static let themeBorderColor = ConfigurationKey("theme.borderColor", .string, .atOnce, "The light appearance's field borders.") {
        $0.theme.light.border
    }

    public static let themeDarkTextColor = ConfigurationKey("theme.darkTextColor", .string, .atOnce, "The dark appearance's text colour.") {
        $0.theme.dark.text
    }

    public static let themeDarkBackgroundColor = ConfigurationKey("theme.darkBackgroundColor", .string, .atOnce, "The dark appearance's background.")
    { $0.theme.dark.background }

    public static let themeDarkAccentColor = ConfigurationKey("theme.darkAccentColor", .string, .atOnce, "The dark appearance's links and buttons.") {
        $0.theme.dark.accent
    }

    public static let themeDarkErrorColor = ConfigurationKey("theme.darkErrorColor", .string, .atOnce, "The dark appearance's errors.") {
        $0.theme.dark.error
    }

    public static let themeDarkBorderColor = ConfigurationKey("theme.darkBorderColor", .string, .atOnce, "The dark appearance's field borders.") {
        $0.theme.dark.border
    }

    /// A palette's colours, each with the key that sets it.
    typealias PaletteKeys = [(color: any WritableKeyPath<ThemePalette, String> & Sendable, key: ConfigurationKey)]

    /// The light appearance's palette.
    static let themeLightPalette: PaletteKeys = [
        (\.text, themeTextColor), (\.background, themeBackgroundColor), (\.accent, themeAccentColor), (\.error, themeErrorColor),
        (\.border, themeBorderColor),
    ]

    /// The dark appearance's palette.
    static let themeDarkPalette: PaletteKeys = [
        (\.text, themeDarkTextColor), (\.background, themeDarkBackgroundColor), (\.accent, themeDarkAccentColor),
        (\.error, themeDarkErrorColor), (\.border, themeDarkBorderColor),
    ]

    /// The `metrics` section's keys, in the reference's order.
    static let metricsKeys: [ConfigurationKey] = [
        metricsEnabled, metricsHost, metricsPort,
    ]

    public static let metricsEnabled = ConfigurationKey(
        "metrics.enabled",
        .boolean,
        .afterRestart(\.metrics),
        "Serve Prometheus metrics on a listener of their own."
    ) {
        "\($0.metrics.enabled)"
    }

    public static let metricsHost = ConfigurationKey(
        "metrics.host",
        .string,
        .afterRestart(\.metrics),
        "The metrics listener's address (keep it internal)."
    ) { $0.metrics.host }

    public static let metricsPort = ConfigurationKey(
        "metrics.port",
        .integer,
        range: 0...65_535,
        .afterRestart(\.metrics),
        "The metrics listener's port."
    ) { "\($0.metrics.port)" }

}
