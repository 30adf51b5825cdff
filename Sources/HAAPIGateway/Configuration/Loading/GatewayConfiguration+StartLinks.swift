extension GatewayConfiguration {
    /// The `startLinks` section: the HMAC secret (at least 32 characters, from a file), the previous one during a
    /// rotation, the parameters a link may carry, and the longest lifetime.
    static func resolveStartLinks(_ reader: inout ConfigurationReader) -> StartLinkSettings {
        var links = StartLinkSettings()
        links.maximumLifetimeSeconds = reader.integer(.startLinksMaximumLifetimeSeconds, default: links.maximumLifetimeSeconds)
        for key: ConfigurationKey in [.startLinksSecretFile, .startLinksPreviousSecretFile] where reader.isSet(key) {
            guard let secret = reader.secretFile(key) else { continue }
            if secret.utf8.count < 32 { reader.problem(key, "must hold at least 32 characters (such as `openssl rand -hex 32`)") }
            if key == .startLinksPreviousSecretFile { links.previousSecret = secret } else { links.secret = secret }
        }
        if links.previousSecret != nil, links.secret == nil {
            reader.problem(.startLinksPreviousSecretFile, "is set, but \(ConfigurationKey.startLinksSecretFile.path) is not")
        }
        for name in reader.list(.startLinksAllowedParameters) ?? [] {
            if StartLinkSettings.allowableParameters.contains(name) {
                links.allowedParameters.append(name)
            } else {
                reader.problem(
                    .startLinksAllowedParameters,
                    "'\(name)' cannot be given by a link (allowed: \(StartLinkSettings.allowableParameters.joined(separator: ", ")))"
                )
            }
        }
        if !links.allowedParameters.isEmpty, links.secret == nil {
            reader.problem(.startLinksAllowedParameters, "is set, but \(ConfigurationKey.startLinksSecretFile.path) is not (links are off)")
        }
        return links
    }
}
