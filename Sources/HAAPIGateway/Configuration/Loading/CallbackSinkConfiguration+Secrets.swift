/// The webhook secrets a sink holds, read back for ``ConfigurationKey``.
extension CallbackSinkConfiguration {
    var webhookSecret: String? {
        if case .webhook(_, let secret, _) = self { secret } else { nil }
    }

    var previousWebhookSecret: String? {
        if case .webhook(_, _, let previous) = self { previous } else { nil }
    }
}
