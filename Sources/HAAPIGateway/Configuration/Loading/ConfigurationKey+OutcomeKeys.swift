import Foundation
import HAAPI

/// The settings of outcomes, pages and metrics.
extension ConfigurationKey {
    /// Where the outcome of a sign-in goes, what it holds, and where the browser goes then.
    static let outcomesKeys: [ConfigurationKey] = [
        .init("callbacks.sinks", .list, .atOnce, "Where each outcome goes: file:PATH, exec:PROGRAM, https:// webhooks.") {
            list($0.callbacks.map(\.description))
        },
        .init(
            "callbacks.webhookSecret",
            .string,
            secret: true,
            .atOnce,
            "The webhook signing secret, at least 16 characters (prefer webhookSecretFile)."
        ) { $0.callbacks.lazy.compactMap(\.webhookSecret).first },
        .init("callbacks.webhookSecretFile", .string, .atOnce, "A file holding the webhook secret.") { _ in nil },
        .init(
            "callbacks.previousWebhookSecretFile",
            .string,
            .atOnce,
            "During a rotation, the old webhook secret: requests carry both signatures."
        ) { $0.callbacks.lazy.compactMap(\.previousWebhookSecret).first.map { _ in "set" } },
        .init(
            "callbacks.retryForSeconds",
            .integer,
            range: 0...604_800,
            .atOnce,
            "How long a failed delivery is retried, with backoff."
        ) { "\($0.callbackDelivery.retryForSeconds)" },
        .init(
            "callbacks.handOverSeconds",
            .integer,
            range: 1...300,
            .atOnce,
            "How long a shutdown waits for the sinks' last deliveries (and at most how long the last page does)."
        ) { "\($0.callbackDelivery.handOverSeconds)" },
        .init(
            "callbacks.pageWaitSeconds",
            .integer,
            range: 1...300,
            .atOnce,
            "How long the person's last page waits for the sinks before it says the hand-over goes on in the background."
        ) { "\($0.callbackDelivery.pageWaitSeconds)" },
        .init(
            "callbacks.spoolFile",
            .string,
            .atOnce,
            "Where deliveries not yet done are kept across restarts (memory store only)."
        ) { $0.callbackDelivery.spoolFile },
        .init("outcome.idTokenClaims", .list, .atOnce, "Claims of the validated ID token put in a successful outcome.") {
            list($0.outcome.idTokenClaims)
        },
        .init("outcome.userinfoClaims", .list, .atOnce, "Claims of the userinfo endpoint put in a successful outcome.") {
            list($0.outcome.userinfoClaims)
        },
        .init("completion.redirectURL", .string, .atOnce, "Where the browser goes after a successful sign-in.") {
            $0.completion.redirectURL?.absoluteString
        },
        .init("completion.confirmCancel", .boolean, .atOnce, "Whether \"Cancel sign-in\" asks first.") {
            "\($0.completion.confirmCancel)"
        },
    ]

    /// How the pages wait, reset and look.
    static let pagesKeys: [ConfigurationKey] = [
        .init(
            "polling.defaultIntervalSeconds",
            .integer,
            range: 1...60,
            .atOnce,
            "How often a waiting page checks when the upstream names no interval."
        ) { "\($0.polling.defaultIntervalSeconds)" },
        .init("polling.maximumWaitSeconds", .integer, range: 10...3600, .atOnce, "The longest wait on one waiting step.") {
            "\($0.polling.maximumWaitSeconds)"
        },
        .init("kiosk.enabled", .boolean, .afterRestart(\.kiosk.enabled), "A shared screen that resets itself for the next person.") {
            "\($0.kiosk.enabled)"
        },
        .init("kiosk.resetAfterSeconds", .integer, range: 1...600, .atOnce, "How long the final page stays in kiosk mode.") {
            "\($0.kiosk.resetAfterSeconds)"
        },
        .init(
            "kiosk.idleResetSeconds",
            .integer,
            range: 10...3600,
            .atOnce,
            "How long a page may stay untouched in kiosk mode before the sign-in starts over."
        ) { "\($0.kiosk.idleResetSeconds)" },
        .init("theme.productName", .string, .atOnce, "Shown above every page's heading and in the browser tab.") {
            $0.theme.productName
        },
        .init("theme.logoFile", .string, .atOnce, "An image shown above every page's heading (at most 256 KiB).") {
            $0.theme.logo.map { "\($0.contentType), \($0.bytes.count) bytes" }
        },
        .init("theme.colorScheme", .string, .atOnce, "auto (follow the device), light or dark.") { $0.theme.colorScheme.rawValue },
        .init("theme.textColor", .string, .atOnce, "The light appearance's text colour.") { $0.theme.light.text },
        .init("theme.backgroundColor", .string, .atOnce, "The light appearance's background.") { $0.theme.light.background },
        .init("theme.accentColor", .string, .atOnce, "The light appearance's links and buttons.") { $0.theme.light.accent },
        .init("theme.errorColor", .string, .atOnce, "The light appearance's errors.") { $0.theme.light.error },
        .init("theme.borderColor", .string, .atOnce, "The light appearance's field borders.") { $0.theme.light.border },
        .init("theme.darkTextColor", .string, .atOnce, "The dark appearance's text colour.") { $0.theme.dark.text },
        .init("theme.darkBackgroundColor", .string, .atOnce, "The dark appearance's background.") { $0.theme.dark.background },
        .init("theme.darkAccentColor", .string, .atOnce, "The dark appearance's links and buttons.") { $0.theme.dark.accent },
        .init("theme.darkErrorColor", .string, .atOnce, "The dark appearance's errors.") { $0.theme.dark.error },
        .init("theme.darkBorderColor", .string, .atOnce, "The dark appearance's field borders.") { $0.theme.dark.border },
    ]

    static let metricsKeys: [ConfigurationKey] = [
        .init("metrics.enabled", .boolean, .afterRestart(\.metrics), "Serve Prometheus metrics on a listener of their own.") {
            "\($0.metrics.enabled)"
        },
        .init("metrics.host", .string, .afterRestart(\.metrics), "The metrics listener's address (keep it internal).") { $0.metrics.host },
        .init("metrics.port", .integer, range: 0...65_535, .afterRestart(\.metrics), "The metrics listener's port.") { "\($0.metrics.port)" },
    ]
}
