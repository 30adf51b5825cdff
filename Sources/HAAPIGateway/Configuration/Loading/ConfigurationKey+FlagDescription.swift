extension ConfigurationKey {
    /// The flags given, as a command's options print (`--port 0 --client-secret <redacted>`): the value of a secret
    /// setting's flag is ``SecretRedaction/marker``, and a URL's password is redacted in every other value; flags not
    /// given are left out.
    /// - Parameter flags: The flags by key path, as ``ConfigurationLayers/addFlags(_:)`` takes them.
    public static func describing(flags: [(path: String, flag: String, value: ConfigurationValue.Content?)]) -> String {
        flags.compactMap { entry -> String? in
            guard let value = entry.value else { return nil }
            let values: [String] =
                switch value {
                case .scalar(let text): [text]
                case .list(let items): items
                case .records(let records): ["\(records.count) records"]
                }
            let isSecret = byPath[entry.path]?.isSecret ?? true
            return values.map { "\(entry.flag) \(isSecret ? SecretRedaction.marker : SecretRedaction.redactingURLPasswords(in: $0))" }
                .joined(separator: " ")
        }
        .joined(separator: " ")
    }
}
