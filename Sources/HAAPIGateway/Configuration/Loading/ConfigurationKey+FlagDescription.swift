extension ConfigurationKey {
    /// The flags given, as a command's options print (`--port 0 --client-secret <redacted>`): the value of a secret
    /// setting's flag is ``SecretRedaction/marker``, and a URL's password is redacted in every other value; flags not
    /// given are left out.
    /// - Parameter flags: The flags with the keys they set, as ``ConfigurationLayers/addFlags(_:)`` takes them.
    public static func describing(flags: [(key: ConfigurationKey, flag: String, value: ConfigurationValue.Content?)]) -> String {
        flags.compactMap { entry -> String? in
            guard let value = entry.value else { return nil }
            let values: [String] =
                switch value {
                case .scalar(let text): [text]
                case .list(let items): items
                case .records(let records): ["\(records.count) records"]
                }
            let isSecret = entry.key.isSecret
            return values.map { "\(entry.flag) \(isSecret ? SecretRedaction.marker : SecretRedaction.redactingURLPasswords(in: $0))" }
                .joined(separator: " ")
        }
        .joined(separator: " ")
    }
}
