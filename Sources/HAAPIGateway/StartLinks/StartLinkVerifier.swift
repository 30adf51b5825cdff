import Crypto
import Foundation

/// Checks signed start links: `/start?ref=…&login_hint=…&exp=…&sig=…` where `sig` is the hex HMAC-SHA256, under
/// `startLinks.secretFile`'s secret (or the previous one during a rotation), of the other parameters sorted by name,
/// each `name=value` percent-encoded (RFC 3986 unreserved characters as they are) and joined with `&`. The link expires
/// at `exp` (Unix seconds, at most `startLinks.maximumLifetimeSeconds` ahead) and starts one sign-in: the ledger
/// (``StartLinkLedger``) notes it used, in memory or, with several replicas, in their database.
struct StartLinkVerifier: Sendable {
    private let settings: SettingsSource<StartLinkSettings>
    private let ledger: any StartLinkLedger
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - ledger: Where used links are noted (by default this process's memory).
    ///   - now: The wall clock (`exp` is Unix time; tests inject one).
    init(
        settings: SettingsSource<StartLinkSettings>,
        ledger: any StartLinkLedger = MemoryStartLinkLedger(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.settings = settings
        self.ledger = ledger
        self.now = now
    }

    /// The link of a request's decoded query pairs, used up by this call; or why not.
    /// - Throws: ``GatewayError`` when the ledger cannot be asked (the database is unreachable): "try again".
    func redeem(_ pairs: [(name: String, value: String)]) async throws(GatewayError) -> Result<StartLink, StartLinkRefusal> {
        switch check(pairs) {
        case .success(let checked):
            guard try await ledger.use(signature: checked.signature, expiry: checked.expiry, now: now()) else { return .failure(.alreadyUsed) }
            return .success(checked.link)
        case .failure(let refusal):
            return .failure(refusal)
        }
    }

    /// The link of a request's decoded query pairs when it is signed, unexpired and allowed, using nothing (whether it
    /// was used is the ledger's to say, when it is redeemed); or why not.
    func check(_ pairs: [(name: String, value: String)]) -> Result<(link: StartLink, signature: String, expiry: Date), StartLinkRefusal> {
        let now = now()
        let settings = settings.current
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
        if let reference = values["ref"],
            reference.count > 200 || reference.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            return .failure(.badReference)
        }
        let link = StartLink(reference: values["ref"], parameters: values.filter { settings.allowedParameters.contains($0.key) })
        return .success((link, signature, expiry))
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
