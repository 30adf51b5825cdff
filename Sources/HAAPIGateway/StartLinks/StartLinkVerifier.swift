import Crypto
import Foundation

/// Checks signed start links: `/start?ref=…&login_hint=…&exp=…&sig=…` where `sig` is the hex HMAC-SHA256, under
/// `startLinks.secretFile`'s secret (or the previous one during a rotation), of the other parameters sorted by name,
/// each `name=value` percent-encoded (RFC 3986 unreserved characters as they are) and joined with `&`. The link expires
/// at `exp` (Unix seconds, at most `startLinks.maximumLifetimeSeconds` ahead) and starts one sign-in.
actor StartLinkVerifier {
    private var settings: StartLinkSettings
    /// Signatures of links already used, until their expiry.
    private var used: [String: Date] = [:]
    private let now: @Sendable () -> Date

    /// - Parameter now: The wall clock (`exp` is Unix time; tests inject one).
    init(settings: StartLinkSettings, now: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.now = now
    }

    /// Applies new settings (a reload).
    func update(settings: StartLinkSettings) {
        self.settings = settings
    }

    /// The link of a request's decoded query pairs, used up by this call; or why not.
    func redeem(_ pairs: [(name: String, value: String)]) -> Result<StartLink, StartLinkRefusal> {
        let now = now()
        used = used.filter { $0.value > now }
        var values: [String: String] = [:]
        for (name, value) in pairs {
            guard values[name] == nil, name == "ref" || name == "exp" || name == "sig" || settings.allowedParameters.contains(name) else {
                return .failure(.parameterNotAllowed(name))
            }
            values[name] = value
        }
        guard let signature = values.removeValue(forKey: "sig")?.lowercased(),
            [settings.secret, settings.previousSecret].compactMap({ $0 }).contains(where: { secret in
                SecureToken.constantTimeEquals(signature, Self.signature(of: values, secret: secret))
            })
        else { return .failure(.badSignature) }
        guard let text = values["exp"], let seconds = Int(text) else { return .failure(.noExpiry) }
        let expiry = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard expiry > now else { return .failure(.expired) }
        guard expiry.timeIntervalSince(now) <= TimeInterval(settings.maximumLifetimeSeconds) else { return .failure(.lifetimeTooLong) }
        if let reference = values["ref"], reference.count > 200 || reference.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(.badReference)
        }
        guard used[signature] == nil else { return .failure(.alreadyUsed) }
        used[signature] = expiry
        return .success(StartLink(reference: values["ref"], parameters: values.filter { settings.allowedParameters.contains($0.key) }))
    }

    /// The hex HMAC-SHA256 of the canonical form of `values` (sorted by name, each `name=value` percent-encoded).
    static func signature(of values: [String: String], secret: String) -> String {
        let canonical = values.sorted { $0.key < $1.key }.map { "\(encode($0.key))=\(encode($0.value))" }.joined(separator: "&")
        let code = HMAC<SHA256>.authenticationCode(for: Data(canonical.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return code.map { String(format: "%02x", $0) }.joined()
    }

    /// RFC 3986 percent-encoding: everything but the unreserved characters (what Python's `quote(v, safe="")` does).
    static func encode(_ text: String) -> String {
        var unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        unreserved.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
