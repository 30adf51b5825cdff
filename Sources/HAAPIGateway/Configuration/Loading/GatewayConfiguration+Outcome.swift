import Foundation
import HAAPI

extension GatewayConfiguration {
    /// `file:PATH`, `exec:PROGRAM` and `https://…` webhooks (which need the webhook secret).
    static func resolveCallbacks(_ reader: inout ConfigurationReader) -> [CallbackSinkConfiguration] {
        let entries = reader.list(.callbacksSinks) ?? []
        let needsSecret = entries.contains { $0.lowercased().hasPrefix("https:") || $0.lowercased().hasPrefix("http:") }
        var webhookSecret: String?
        if needsSecret {
            if reader.isSet(.callbacksWebhookSecret) || reader.isSet(.callbacksWebhookSecretFile) {
                webhookSecret = reader.secret(.callbacksWebhookSecret, fileKey: .callbacksWebhookSecretFile)
                if let secret = webhookSecret, secret.utf8.count < 16 {
                    reader.problem(
                        reader.isSet(.callbacksWebhookSecret) ? .callbacksWebhookSecret : .callbacksWebhookSecretFile,
                        "must be at least 16 characters"
                    )
                }
            } else {
                reader.problem(
                    .callbacksSinks,
                    "a webhook needs \(ConfigurationKey.callbacksWebhookSecret.path) or \(ConfigurationKey.callbacksWebhookSecretFile.path) to sign its requests"
                )
            }
        } else if reader.isSet(.callbacksWebhookSecret) || reader.isSet(.callbacksWebhookSecretFile) {
            reader.problem(
                reader.isSet(.callbacksWebhookSecret) ? .callbacksWebhookSecret : .callbacksWebhookSecretFile,
                "is set, but \(ConfigurationKey.callbacksSinks.path) has no webhook"
            )
        }
        // During a rotation the previous secret signs too, so receivers not yet switched keep verifying.
        var previousWebhookSecret: String?
        if reader.isSet(.callbacksPreviousWebhookSecretFile) {
            previousWebhookSecret = reader.secretFile(.callbacksPreviousWebhookSecretFile)
            if !needsSecret {
                reader.problem(.callbacksPreviousWebhookSecretFile, "is set, but \(ConfigurationKey.callbacksSinks.path) has no webhook")
            }
        }
        var sinks: [CallbackSinkConfiguration] = []
        // A relative file: path is a path like any other: in the file, relative to the file; by flag or environment, to
        // the working directory.
        let resolvingFile = { [reader] (path: String) in reader.filePath(path, within: .callbacksSinks).path }
        for entry in entries {
            switch CallbackSinkConfiguration.parse(entry, resolvingFile: resolvingFile) {
            case .success(.webhook(let url, _, _)):
                requireHTTPS(&reader, .callbacksSinks, url, subject: "webhook \(url.host ?? "") ")
                if let webhookSecret { sinks.append(.webhook(url: url, secret: webhookSecret, previousSecret: previousWebhookSecret)) }
            case .success(.file(let path)):
                var isDirectory: ObjCBool = false
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
                    reader.problem(.callbacksSinks, "the directory of \(entry) does not exist")
                } else if let reason = FileAccess.reason(writingIn: directory) {
                    reader.problem(.callbacksSinks, "\(entry): cannot write in \(directory): \(reason)", unreadableInput: true)
                }
                sinks.append(.file(path: path))
            case .success(.exec(let program)):
                if !FileManager.default.isExecutableFile(atPath: program) {
                    reader.problem(.callbacksSinks, "\(entry) is not an executable file")
                }
                sinks.append(.exec(program: program))
            case .failure(let error):
                reader.problem(.callbacksSinks, error.problems.joined(separator: "; "))
            }
        }
        return sinks
    }

    /// `outcome.idTokenClaims` and `outcome.userinfoClaims`: claim names, each once, none empty or in both lists; both
    /// need the `openid` scope (without it there is no ID token and no userinfo, OpenID Connect Core 1.0 §3.1.2.1).
    static func resolveOutcome(_ reader: inout ConfigurationReader, scopes: [String]) -> OutcomeSettings {
        var settings = OutcomeSettings()
        var seen: [String: ConfigurationKey] = [:]
        for key: ConfigurationKey in [.outcomeIdTokenClaims, .outcomeUserinfoClaims] {
            var names: [String] = []
            for name in reader.list(key) ?? [] {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    reader.problem(key, "a claim name must not be empty")
                } else if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    reader.problem(key, "a claim name must not contain control characters")
                } else if let first = seen[trimmed] {
                    reader.problem(
                        key,
                        first == key ? "'\(trimmed)' is listed twice" : "'\(trimmed)' is also in \(first.path); take each claim from one source"
                    )
                } else {
                    seen[trimmed] = key
                    names.append(trimmed)
                }
            }
            if !names.isEmpty, !scopes.contains("openid") {
                reader.problem(
                    key,
                    "needs the openid scope in \(ConfigurationKey.upstreamScopes.path) (without it there is no \(key == .outcomeIdTokenClaims ? "ID token" : "userinfo"))"
                )
            }
            if key == .outcomeIdTokenClaims { settings.idTokenClaims = names } else { settings.userinfoClaims = names }
        }
        return settings
    }
}
