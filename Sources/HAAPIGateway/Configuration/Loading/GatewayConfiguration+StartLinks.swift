extension GatewayConfiguration {
    /// The `startLinks` section: the HMAC secret (at least 32 characters, from a file), the previous one during a
    /// rotation, the parameters a link may carry, and the longest lifetime.
    static func resolveStartLinks(_ reader: inout ConfigurationReader) -> StartLinkSettings {
        var links = StartLinkSettings()
        links.maximumLifetimeSeconds = reader.integer("startLinks.maximumLifetimeSeconds", default: links.maximumLifetimeSeconds)
        for key in ["startLinks.secretFile", "startLinks.previousSecretFile"] where reader.isSet(key) {
            guard let secret = reader.secretFile(key) else { continue }
            if secret.utf8.count < 32 { reader.problem(key, "must hold at least 32 characters (such as `openssl rand -hex 32`)") }
            if key.hasSuffix("previousSecretFile") { links.previousSecret = secret } else { links.secret = secret }
        }
        if links.previousSecret != nil, links.secret == nil {
            reader.problem("startLinks.previousSecretFile", "is set, but startLinks.secretFile is not")
        }
        for name in reader.list("startLinks.allowedParameters") ?? [] {
            if StartLinkSettings.allowableParameters.contains(name) {
                links.allowedParameters.append(name)
            } else {
                reader.problem(
                    "startLinks.allowedParameters",
                    "'\(name)' cannot be given by a link (allowed: \(StartLinkSettings.allowableParameters.joined(separator: ", ")))"
                )
            }
        }
        if !links.allowedParameters.isEmpty, links.secret == nil {
            reader.problem("startLinks.allowedParameters", "is set, but startLinks.secretFile is not (links are off)")
        }
        return links
    }
}
